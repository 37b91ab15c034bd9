import { useEffect, useRef } from 'react';

/**
 * Moves the focus once the next render is on the screen: to a row's control after the row moved, to a new row's first
 * field, to the first field with a problem. `focusNext(() => element)` finds the element then, not now.
 */
export function useFocusAfterRender(): (find: () => HTMLElement | null | undefined) => void {
  const pending = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const find = pending.current;
    pending.current = null;
    find?.()?.focus();
  });
  return (find) => {
    pending.current = find;
  };
}
