import { type RefObject, useId } from 'react';
import { Field } from '../../components/field';
import { MoveButtons, moved } from './move-buttons';
import type { SizeRow } from './product-form-values';

interface SizeRowsProps {
  rows: SizeRow[];
  /** The problem to show under a field, by its key (src/client/features/admin/product-form-values.ts). */
  problemAt(key: string): string | undefined;
  /** 'Add a size', which takes the focus when the list as a whole has a problem. */
  addSize: RefObject<HTMLButtonElement | null>;
  /** A change of the list: the key of what changed (a row's field, or `sizes`), and the new list from the old. */
  onEdit(key: string, change: (rows: SizeRow[]) => SizeRow[]): void;
  /** A field left: its problem shows from now on. */
  onLeave(key: string): void;
  onAdd(): void;
  focusNext(find: () => HTMLElement | null | undefined): void;
}

/**
 * The sizes of the owner's form, in the order the home page lists them: a group per size with its name and stock,
 * moved, removed and added with buttons.
 */
export function SizeRows({ rows, problemAt, addSize, onEdit, onLeave, onAdd, focusNext }: SizeRowsProps) {
  const id = useId();
  const listProblem = problemAt('sizes');
  const control = (key: string, name: string) => () =>
    document.querySelector<HTMLElement>(`[data-size-row="${key}"] [data-control="${name}"]`);

  function edit(row: SizeRow, field: 'size' | 'stock', value: string) {
    onEdit(`sizes.${row.key}.${field}`, (current) =>
      current.map((r) => (r.key === row.key ? { ...r, [field]: value } : r)),
    );
  }

  function remove(row: SizeRow, index: number) {
    onEdit('sizes', (current) => current.filter((r) => r.key !== row.key));
    const next = rows[index + 1] ?? rows[index - 1];
    focusNext(() => (next ? control(next.key, 'remove')() : addSize.current));
  }

  return (
    <fieldset className="sizes" aria-describedby={`${id}-hint`}>
      <legend className="sizes-legend">Sizes</legend>
      <p id={`${id}-hint`} className="field-hint">
        In the order the home page lists them. A renamed size keeps its stock and its rows in carts; a removed one
        leaves the rows in carts that hold it no longer available.
      </p>
      {rows.map((row, index) => (
        <fieldset key={row.key} className="size-row" data-size-row={row.key}>
          <legend className="sizes-legend">Size {index + 1}</legend>
          <Field
            label="Size name"
            name={`${row.key}-size`}
            autoComplete="off"
            value={row.size}
            error={problemAt(`sizes.${row.key}.size`)}
            announceError
            onChange={(event) => edit(row, 'size', event.target.value)}
            onBlur={() => onLeave(`sizes.${row.key}.size`)}
          />
          <Field
            label="Stock"
            name={`${row.key}-stock`}
            autoComplete="off"
            inputMode="numeric"
            value={row.stock}
            error={problemAt(`sizes.${row.key}.stock`)}
            announceError
            onChange={(event) => edit(row, 'stock', event.target.value)}
            onBlur={() => onLeave(`sizes.${row.key}.stock`)}
          />
          <div className="size-actions">
            <MoveButtons
              index={index}
              count={rows.length}
              what={`size ${index + 1}`}
              onMove={(by) => onEdit('sizes', (current) => moved(current, index, by))}
            />
            <button
              type="button"
              className="button button-quiet"
              data-control="remove"
              onClick={() => remove(row, index)}
            >
              Remove
            </button>
          </div>
        </fieldset>
      ))}
      {listProblem && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {listProblem}
        </p>
      )}
      <p>
        <button
          ref={addSize}
          type="button"
          className="button button-quiet"
          aria-describedby={listProblem ? `${id}-error` : undefined}
          onClick={onAdd}
        >
          Add a size
        </button>
      </p>
    </fieldset>
  );
}
