import { useEffect, useRef } from 'react';

/** The list with the item at `index` moved one place up (-1) or down (1). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const next = [...list];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(index + by, 0, item);
  return next;
}

interface MoveButtonsProps {
  /** The item's place in its list, from 0, and how many the list has. */
  index: number;
  count: number;
  /** What moves, for a screen reader: 'Move up picture 2'. */
  what: string;
  /** While a move or another change is sent. */
  disabled?: boolean;
  onMove(by: -1 | 1): void;
}

/**
 * 'Move up' and 'Move down' for an item of a list the owner puts in order (products, categories, pictures, sizes,
 * shipping zones and methods), each offered only where the item can go. The list keys its items, so these buttons
 * move with theirs and the focus stays on the one pressed (taken back if it was lost while the move was sent); at
 * either end, where that one is no longer offered, its twin takes the focus.
 */
export function MoveButtons({ index, count, what, disabled, onMove }: MoveButtonsProps) {
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  // The button last pressed, and the place the item had then.
  const pressed = useRef<{ by: -1 | 1; from: number } | null>(null);

  useEffect(() => {
    const last = pressed.current;
    if (last === null || last.from === index) return;
    pressed.current = null;
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    const [own, twin] = last.by === -1 ? [up, down] : [down, up];
    (own.current ?? twin.current)?.focus();
  }, [index]);

  function move(by: -1 | 1) {
    pressed.current = { by, from: index };
    onMove(by);
  }

  return (
    <>
      {index > 0 && (
        <button ref={up} type="button" className="button button-quiet" disabled={disabled} onClick={() => move(-1)}>
          Move up<span className="visually-hidden"> {what}</span>
        </button>
      )}
      {index < count - 1 && (
        <button ref={down} type="button" className="button button-quiet" disabled={disabled} onClick={() => move(1)}>
          Move down<span className="visually-hidden"> {what}</span>
        </button>
      )}
    </>
  );
}
