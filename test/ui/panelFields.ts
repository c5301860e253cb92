/** The cluster panel's fields as its tests reach them: by their accessible label, typed into as a user types. */
import { act } from "react";

/** The control a label names (its text starts with `name`), inside `host`. */
export function control<T extends HTMLElement = HTMLInputElement>(host: HTMLElement, name: string): T {
  const label = [...host.querySelectorAll("label")].find((l) => l.textContent?.startsWith(name));
  const input = label ? host.querySelector<T>(`#${CSS.escape(label.htmlFor)}`) : null;
  if (!input) throw new Error(`no field named ${name}`);
  return input;
}

/** Types `text` into an input as React sees a keystroke: the native setter, then an input event. */
export function typeInto(input: HTMLInputElement, text: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  act(() => {
    setter?.call(input, text);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
