// A briefing's markdown with its nesting bounded before react-markdown renders it: 5,000 nested
// quotes or 1,000 nested list items must not take seconds to parse, nor overflow the stack while
// rendering (which would blank the pane). Two steps:
// 1. On the text, per line: at most MAX_LINE_MARKERS quote and list markers open a line (the
//    rest are dropped, the line's text stays), and its indentation is cut to MAX_INDENT columns,
//    which bounds the nesting that indentation alone builds, so the parser has little to nest;
//    emphasis marks past MAX_EMPHASIS_MARKS in the whole text are escaped.
// 2. On the parsed tree (a remark plugin): quotes, lists and inline formatting (emphasis, strong,
//    links) deeper than MAX_NESTING levels give way to their content, which stays, in order.
// Ordinary briefings (a few levels) pass through both unchanged.

/** Levels of quotes, lists and inline formatting a briefing shows; deeper ones are flattened. */
export const MAX_NESTING = 8;
const MAX_LINE_MARKERS = MAX_NESTING;
const MAX_INDENT = 2 * MAX_NESTING;

/** A quote or list marker at the start of what is left of a line, with the spaces around it. */
const MARKER = /^[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/;

function columns(whitespace: string): number {
  let width = 0;
  for (const ch of whitespace) width = ch === "\t" ? width + 4 - (width % 4) : width + 1;
  return width;
}

function flattenLine(line: string): string {
  const indent = /^[ \t]*/.exec(line)![0];
  let rest = columns(indent) > MAX_INDENT ? " ".repeat(MAX_INDENT) + line.slice(indent.length) : line;
  let kept = "";
  for (let markers = 0; ; markers++) {
    const marker = MARKER.exec(rest);
    if (!marker) break;
    if (markers < MAX_LINE_MARKERS) kept += marker[0];
    rest = rest.slice(marker[0].length);
  }
  return kept + rest;
}

/**
 * Emphasis marks (* and _) a briefing may use: far more than a page of bold labels needs. The
 * parser pairs them in time that grows with the square of their number (3,000 nested emphases:
 * tens of seconds), so those past it are escaped and show as the characters they are.
 */
export const MAX_EMPHASIS_MARKS = 500;

function escapeExtraEmphasis(text: string): string {
  let marks = 0;
  // An escaped character (\* included) is passed as it is and not counted.
  return text.replace(/\\[\s\S]|[*_]/g, (found) => (found.length === 1 && ++marks > MAX_EMPHASIS_MARKS ? `\\${found}` : found));
}

/** The markdown text with each line's markers and indentation bounded, and its emphasis marks (step 1). */
export function flattenNestingText(markdown: string): string {
  return escapeExtraEmphasis(markdown.split("\n").map(flattenLine).join("\n"));
}

interface TreeNode {
  type: string;
  children?: TreeNode[];
}

/** Nodes that add a level (a list's items do not: they go with their list). */
const LEVELS = new Set(["blockquote", "list", "emphasis", "strong", "delete", "link", "linkReference"]);

/** What takes a flattened node's place: its content (a list's: its items' content). */
function contentOf(node: TreeNode): TreeNode[] {
  const children = node.children ?? [];
  return node.type === "list" ? children.flatMap((item) => item.children ?? []) : children;
}

/** `children` of a node `levels` deep, with every level past the limit replaced by its content. */
function flattenChildren(children: TreeNode[], levels: number): TreeNode[] {
  const out: TreeNode[] = [];
  const pending = [...children].reverse();
  while (pending.length > 0) {
    const child = pending.pop()!;
    if (levels < MAX_NESTING || !LEVELS.has(child.type)) {
      out.push(child);
      continue;
    }
    const content = contentOf(child);
    for (let i = content.length - 1; i >= 0; i--) pending.push(content[i]!);
  }
  return out;
}

/** Step 2 on a parsed tree, in place: walks it with its own stack, so any depth is safe. */
export function flattenTree(tree: TreeNode): void {
  const stack: { node: TreeNode; levels: number }[] = [{ node: tree, levels: 0 }];
  while (stack.length > 0) {
    const { node, levels } = stack.pop()!;
    if (!node.children) continue;
    node.children = flattenChildren(node.children, levels);
    for (const child of node.children) stack.push({ node: child, levels: levels + (LEVELS.has(child.type) ? 1 : 0) });
  }
}

/** Step 2 as a remark plugin (react-markdown's remarkPlugins). */
export function remarkFlattenNesting(): (tree: TreeNode) => void {
  return flattenTree;
}
