/**
 * Bounds on a JSON or YAML document before anything walks it recursively:
 * how deep it nests, how much its YAML aliases expand it, and whether an
 * alias names a value that contains it. Each is checked with a loop over an
 * explicit stack, so a hostile file gets a sentence about the file, never
 * the parser's "Maximum call stack size exceeded" or "Converting circular
 * structure to JSON" (issue 20: a 42 KB YAML with one anchor used 99 times
 * cost 27 s, 1.7 GB and 990,102 error lines).
 */
import { MAX_DEPTH, TOO_DEEP } from "./depth.ts";

export { jsonProblem, MAX_DEPTH } from "./depth.ts";
import {
  Composer,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  Parser,
  YAMLParseError,
  type Document,
  type LineCounter,
} from "yaml";

/**
 * Values YAML aliases may add to a document. A 10,000-node file (the cluster
 * bound) writing `devices: *dgx` on each node adds 5 values a node (a list,
 * a map and its class, count and free): 50,000; twice that is the bound.
 */
export const MAX_ALIAS_VALUES = 100_000;
/** yaml's own alias limit (its default): an anchor used more often than this is refused by toJS. */
export const MAX_ALIAS_COUNT = 100;

/**
 * YAML tokens (keys, values, indicators) a document may have before it is
 * composed. yaml's document costs about 600 bytes a token: 400,000 tokens
 * (a 600 KB flow list of 200,000 aliases) took 2.3 s and 250 MB to parse,
 * measured here with yaml 2.9.1, where its lexer counts them in 0.12 s with
 * no memory to speak of. A Modelplan YAML takes about 40 tokens a node, so
 * 250,000 hold 6,000 nodes; a bigger cluster reads faster as JSON.
 */
export const MAX_YAML_TOKENS = 250_000;

/**
 * YAML problems composed before the parse stops. yaml keeps going after an
 * error and makes an Error (with its stack) for each: a 1 MB JSON with one
 * line repeated 175,000 times took 7 s and 900 MB to list 175,000 of them
 * (measured here, yaml 2.9.1). The first says where the file broke.
 */
export const MAX_YAML_ERRORS = 50;

/**
 * Why a text is too big or too deep to compose as YAML, or null; counted by
 * yaml's own lexer, which stops at the bound. Flow nesting ("[[[[…") is
 * caught here too: the composer recurses on it and overflows the stack.
 */
export function yamlSizeProblem(text: string): string | null {
  let tokens = 0;
  let flowDepth = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === "[" || token === "{") {
      if (++flowDepth > MAX_DEPTH) return TOO_DEEP;
    } else if (token === "]" || token === "}") flowDepth--;
    if (token.trim() !== "" && ++tokens > MAX_YAML_TOKENS) {
      return `it holds more than ${MAX_YAML_TOKENS.toLocaleString("en-US")} YAML items, more than a YAML cluster file of ${(6000).toLocaleString("en-US")} nodes: give a cluster that large as JSON (Modelplan's, or kubectl get nodes -o json)`;
    }
  }
  return null;
}

/** A YAML problem: yaml's message and where in the text (a character offset). */
export interface YamlProblem {
  message: string;
  offset: number;
}

class StopComposing extends Error {}

/** Where yaml's onError places a problem: an offset, a [start, end] range, or a token with an offset. */
function offsetOf(source: unknown): number {
  if (typeof source === "number") return source;
  if (Array.isArray(source) && typeof source[0] === "number") return source[0];
  if (typeof source === "object" && source !== null && "offset" in source && typeof source.offset === "number")
    return source.offset;
  return 0;
}

/**
 * yaml's parseDocument (its own Parser and Composer), stopped once
 * MAX_YAML_ERRORS problems are found (`stopped`; a problem inside the
 * document leaves no document, only the problems). The Composer reports each problem through its
 * onError, which yaml's types keep private; it is wrapped to count, and if a
 * release renames it the parse simply runs unbounded, as parseDocument does.
 * A second document is a problem, as parseDocument makes it.
 */
export function composeYaml(
  text: string,
  counter: LineCounter,
): { doc: Document.Parsed | null; problems: YamlProblem[]; stopped: boolean } {
  const parser = new Parser(counter.addNewLine);
  // logLevel "error": a key that is itself a list or map ("? [a]: 1") is stringified and then named as a
  // field Modelplan does not read (json.ts unknownFields), rather than printing yaml's process warning on the console.
  const composer = new Composer({ uniqueKeys: false, logLevel: "error" });
  const seen: YamlProblem[] = [];
  const internals = composer as unknown as {
    onError?: (source: unknown, code: string, message: string, warning?: boolean) => void;
  };
  const onError = internals.onError;
  if (typeof onError === "function") {
    internals.onError = (source, code, message, warning) => {
      onError(source, code, message, warning);
      if (warning) return;
      seen.push({ message, offset: offsetOf(source) });
      if (seen.length >= MAX_YAML_ERRORS) throw new StopComposing();
    };
  }
  // Problems past the document's end (a stray "]" a line) arrive as CST error tokens, not through onError.
  let stopped = false;
  function* tokens() {
    let stray = 0;
    for (const token of parser.parse(text)) {
      yield token;
      if (token.type === "error" && seen.length + ++stray >= MAX_YAML_ERRORS) {
        stopped = true;
        return;
      }
    }
  }
  let doc: Document.Parsed | null = null;
  try {
    for (const next of composer.compose(tokens(), true, text.length)) {
      if (!doc) doc = next;
      else {
        doc.errors.push(
          new YAMLParseError(
            [next.range[0], next.range[1]],
            "MULTIPLE_DOCS",
            "Source contains multiple documents; please use YAML.parseAllDocuments()",
          ),
        );
        break;
      }
    }
  } catch (err) {
    if (!(err instanceof StopComposing)) throw err;
    return { doc: null, problems: seen, stopped: true };
  }
  // compose(…, forceDoc = true) always ends with a document.
  const parsed = doc as Document.Parsed;
  return { doc: parsed, problems: parsed.errors.map((e) => ({ message: e.message, offset: e.pos[0] })), stopped };
}

/** The parser's own failure in words about the input: its recursion on deep flow nesting ("[[[[…") overflows the stack. */
export function parserProblem(message: string): string | null {
  return /call stack/i.test(message) ? TOO_DEEP : null;
}

interface Frame {
  node: object;
  children: unknown[];
  next: number;
  size: number;
  height: number;
  /** Reached through an alias: its size is what the alias adds. */
  viaAlias: boolean;
}

function childrenOf(node: unknown): unknown[] {
  if (isMap(node) || isSeq(node))
    return (node.items as unknown[]).flatMap((item) => (isPair(item) ? [item.key, item.value] : [item]));
  if (isPair(node)) return [node.key, node.value];
  return [];
}

function anchorOf(node: unknown): string | undefined {
  return (isScalar(node) || isMap(node) || isSeq(node)) && typeof node.anchor === "string" ? node.anchor : undefined;
}

/**
 * Why a YAML document is refused before toJS expands it, or null: it nests
 * past MAX_DEPTH (aliases expanded), its aliases add more than
 * MAX_ALIAS_VALUES values, an anchor is used past MAX_ALIAS_COUNT times, or
 * an alias sits inside the value it names. One pass in document order,
 * resolving each alias to the last anchor of its name before it, as YAML 1.2
 * §3.2.2.2 does; each value is measured once.
 */
export function yamlProblem(doc: Document): string | null {
  const measured = new Map<object, { size: number; height: number }>();
  const anchors = new Map<string, object>();
  const uses = new Map<string, number>();
  const onPath = new Set<object>();
  let added = 0;
  const root = doc.contents;
  if (typeof root !== "object" || root === null) return null;
  const open = (node: object, viaAlias: boolean): Frame => {
    const anchor = anchorOf(node);
    if (anchor !== undefined && !viaAlias) anchors.set(anchor, node);
    onPath.add(node);
    return { node, children: childrenOf(node), next: 0, size: 1, height: 1, viaAlias };
  };
  const stack: Frame[] = [open(root, false)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    if (top.next < top.children.length) {
      const child = top.children[top.next++];
      if (typeof child !== "object" || child === null) continue;
      let target: object = child;
      if (isAlias(child)) {
        const source = anchors.get(child.source);
        // An alias with no anchor before it: yaml's own error says so.
        if (source === undefined) continue;
        const count = (uses.get(child.source) ?? 0) + 1;
        uses.set(child.source, count);
        if (count > MAX_ALIAS_COUNT)
          return `the anchor &${shortName(child.source)} is used more than ${MAX_ALIAS_COUNT} times; YAML readers stop there against alias bombs: write the values out, or use fewer aliases`;
        if (onPath.has(source))
          return `the alias *${shortName(child.source)} is used inside the value it names (&${shortName(child.source)}), so that value never ends: point the alias at another value`;
        target = source;
        const known = measured.get(source);
        if (known) {
          added += known.size;
          top.size += known.size;
          top.height = Math.max(top.height, known.height + 1);
          if (added > MAX_ALIAS_VALUES) return aliasBomb();
          if (stack.length + known.height > MAX_DEPTH) return TOO_DEEP;
          continue;
        }
      }
      if (stack.length >= MAX_DEPTH) return TOO_DEEP;
      stack.push(open(target, target !== child));
      continue;
    }
    stack.pop();
    onPath.delete(top.node);
    measured.set(top.node, { size: top.size, height: top.height });
    if (top.viaAlias) added += top.size;
    if (added > MAX_ALIAS_VALUES) return aliasBomb();
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.size += top.size;
      parent.height = Math.max(parent.height, top.height + 1);
    }
  }
  return null;
}

function aliasBomb(): string {
  return `its aliases (*name) repeat more than ${MAX_ALIAS_VALUES.toLocaleString("en-US")} values, far more than a cluster file holds: write the nodes out, or repeat less`;
}

/** An anchor's name as a message shows it: cut to 40 characters. */
function shortName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 39)}…` : name;
}
