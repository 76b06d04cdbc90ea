// The matching variant of "Enrich selection": read the selected column of websites, company
// names or emails, say what it holds (detected; the user can correct it), and pick the
// neighbouring country and city (or company) columns. The panel plans and runs like for ids.
import { useState } from "react";
import { Button, Field, Select } from "@fluentui/react-components";
import {
  detectMatchContent,
  type EntityKind,
  type MatchContent,
  type NeighbourValues,
  type SelectedColumn,
  type SelectionMode,
  type SelectionSource,
} from "../../core/enrich/index.js";

export type Content = MatchContent | "person";
export const CONTENT_LABEL: Record<Content, string> = { website: "Websites", name: "Company names", email: "Email addresses", person: "Person names" };
export const kindOf = (content: Content): EntityKind => (content === "email" || content === "person" ? "contact" : "company");
const OFFSETS = [-3, -2, -1, 1, 2, 3];

type Beside = "country" | "city" | "company";
export interface ReadList {
  selection: SelectedColumn;
  /** Header text (first cell) of each neighbouring column, by offset. */
  neighbours: Map<number, string>;
}

/** The list's setup: what was read, what it holds, and which neighbours decide. */
export function useMatchSetup(source: SelectionSource) {
  const [read, setRead] = useState<ReadList | undefined>();
  const [content, setContent] = useState<Content>("website");
  const [beside, setBeside] = useState<Partial<Record<Beside, number>>>({});

  /** Reads the selection and its neighbours' headers; returns a message when there is nothing to read. */
  const readSelection = async (): Promise<string | undefined> => {
    const answer = await source.readIds();
    if (!answer.ok) return answer.message;
    const neighbours = new Map<number, string>();
    if (source.readColumnBeside) {
      for (const offset of OFFSETS) {
        const values = await source.readColumnBeside(answer.selection.address, offset);
        if (values) neighbours.set(offset, String(values[0] ?? "").slice(0, 30));
      }
    }
    setRead({ selection: answer.selection, neighbours });
    setContent(detectMatchContent(answer.selection.values.slice(1)));
    // Neighbours named like a country or city are picked for the user, who can change them.
    const pick = (pattern: RegExp) => [...neighbours].find(([, header]) => pattern.test(header))?.[0];
    setBeside({ country: pick(/country/i), city: pick(/city|town/i), company: pick(/company|account/i) });
    return undefined;
  };

  /** How the selection is read in matching, with the picked neighbours' values. */
  const mode = async (selection: SelectedColumn): Promise<SelectionMode> => {
    const values: NeighbourValues = {};
    for (const which of ["country", "city", "company"] as const) {
      const offset = beside[which];
      if (offset === undefined || !source.readColumnBeside) continue;
      const column = await source.readColumnBeside(selection.address, offset);
      if (column) values[which] = column;
    }
    return { by: "match", content: content === "person" ? "name" : content, beside: values };
  };

  /** Output goes beyond the rightmost picked neighbour, so it never lands on the country or city. */
  const rightmost = Math.max(0, ...Object.values(beside).filter((o): o is number => o !== undefined));
  return { read, content, setContent, beside, setBeside, readSelection, mode, rightmost, kind: kindOf(content) };
}

export type MatchSetup = ReturnType<typeof useMatchSetup>;

export function MatchListControls({ setup, busy, onRead, onContent }: { setup: MatchSetup; busy: boolean; onRead(): void; onContent(content: Content): void }) {
  const { read, content, beside, setBeside } = setup;
  const neighbourPicker = (which: Beside, label: string) => (
    <Field label={label} key={which}>
      <Select
        value={beside[which] === undefined ? "" : String(beside[which])}
        onChange={(_e, data) => setBeside((current) => ({ ...current, [which]: data.value === "" ? undefined : Number(data.value) }))}
        disabled={busy}
      >
        <option value="">None</option>
        {[...(read?.neighbours ?? [])].map(([offset, header]) => (
          <option key={offset} value={String(offset)}>
            {`${offset > 0 ? `${offset} right` : `${-offset} left`}${header ? `: ${header}` : ""}`}
          </option>
        ))}
      </Select>
    </Field>
  );
  return (
    <>
      <Button appearance="primary" disabled={busy} onClick={onRead}>
        Read selection
      </Button>
      {read && (
        <>
          <Field label={`${read.selection.address} holds`}>
            <Select value={content} onChange={(_e, data) => onContent(data.value as Content)} disabled={busy} aria-label="The column holds">
              {(Object.keys(CONTENT_LABEL) as Content[]).map((c) => (
                <option key={c} value={c}>
                  {CONTENT_LABEL[c]}
                </option>
              ))}
            </Select>
          </Field>
          {read.neighbours.size > 0 && setup.kind === "company" && (
            <>
              {neighbourPicker("country", "Country column")}
              {neighbourPicker("city", "City column")}
            </>
          )}
          {read.neighbours.size > 0 && content === "person" && neighbourPicker("company", "Company column")}
        </>
      )}
    </>
  );
}
