import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const storageKey = 'scroll-positions';

function savedPositions(): Record<string, number> {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? '{}');
    return typeof value === 'object' && value !== null ? (value as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/**
 * A new page starts at its top (or at its #fragment); Back, Forward and reload return to where that history
 * entry was scrolled, as React Router's data-mode <ScrollRestoration> does.
 */
export function ScrollRestoration() {
  const { key, hash } = useLocation();
  const action = useNavigationType();
  const positions = useRef<Record<string, number>>(savedPositions());
  const currentKey = useRef(key);

  useEffect(() => {
    const previous = history.scrollRestoration;
    history.scrollRestoration = 'manual';
    const remember = () => {
      positions.current[currentKey.current] = window.scrollY;
    };
    const persist = () => {
      remember();
      try {
        sessionStorage.setItem(storageKey, JSON.stringify(positions.current));
      } catch {}
    };
    window.addEventListener('scroll', remember, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('scroll', remember);
      window.removeEventListener('pagehide', persist);
      history.scrollRestoration = previous;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll once per history entry, not per render.
  useLayoutEffect(() => {
    currentKey.current = key;
    const saved = positions.current[key];
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else if (action === 'POP' && saved !== undefined) window.scrollTo(0, saved);
    else window.scrollTo(0, 0);
  }, [key]);

  return null;
}
