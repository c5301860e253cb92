/**
 * A failure in one part of the page shows a message and a way back, never
 * a blank page (issue 20: a link's manual model with 2^32 layers threw while
 * the plan was drawn, and the page stayed blank on every reload until the
 * fragment was removed).
 */
import { Component, type ReactNode } from "react";

interface PlanBoundaryProps {
  children: ReactNode;
  /** What the part is, for the message: "the plan", "the page". */
  part: string;
  /** The way back, as a button: e.g. open the page without the link's model. */
  leave: { label: string; run: () => void };
  /** When this changes (another model, another cluster), the part is tried again. */
  resetKey: unknown;
}

interface PlanBoundaryState {
  error: Error | null;
  keyAtError: unknown;
}

/** The key of a failure just caught, before the next render reads the props it failed with. */
const JUST_FAILED = Symbol("just failed");

export class PlanBoundary extends Component<PlanBoundaryProps, PlanBoundaryState> {
  override state: PlanBoundaryState = { error: null, keyAtError: undefined };

  static getDerivedStateFromError(error: unknown): Partial<PlanBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)), keyAtError: JUST_FAILED };
  }

  static getDerivedStateFromProps(
    props: PlanBoundaryProps,
    state: PlanBoundaryState,
  ): Partial<PlanBoundaryState> | null {
    if (!state.error) return null;
    if (state.keyAtError === JUST_FAILED) return { keyAtError: props.resetKey };
    // A failure belongs to the inputs that caused it: new inputs get a fresh try.
    return Object.is(props.resetKey, state.keyAtError) ? null : { error: null, keyAtError: undefined };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="notice" role="alert">
        <p>
          <strong>{`Something in ${this.props.part} failed, so it is not shown:`}</strong> {error.message.slice(0, 300)}
        </p>
        <p className="boundary-ways">
          <button type="button" onClick={this.props.leave.run}>
            {this.props.leave.label}
          </button>{" "}
          <button
            type="button"
            className="secondary"
            onClick={() => this.setState({ error: null, keyAtError: undefined })}
          >
            Try again
          </button>
        </p>
      </div>
    );
  }
}
