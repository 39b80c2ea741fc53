import { Children, startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders `children` once the page around it has been committed, and `placeholder` until then:
 * for what lies below the fold, so the first paint waits for less. Each child comes in a
 * transition and a commit of its own, after the one before it, so no single task of a phone's
 * main thread builds them all. Nothing is left out: it all renders moments later, seen or not.
 */
export function AfterFirstPaint({
  children,
  placeholder = null,
}: {
  children: ReactNode;
  placeholder?: ReactNode;
}) {
  // Counted by position, empty children included, so a child that appears later keeps its place.
  const count = Children.count(children);
  const [shown, setShown] = useState(0);
  const allShown = shown >= count;
  useEffect(() => {
    if (!allShown) startTransition(() => setShown((done) => done + 1));
  }, [shown, allShown]);
  return (
    <>
      {Children.map(children, (child, index) => (index < shown ? child : null))}
      {allShown ? null : placeholder}
    </>
  );
}

/**
 * False until the browser is first idle after mounting: for a request that nothing on the first
 * screen waits for (a navigation count), so it does not compete with the page's own.
 */
export function useIdleAfterMount(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const becomeIdle = () => setIdle(true);
    // Safari has no requestIdleCallback.
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(becomeIdle, { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(becomeIdle, 200);
    return () => clearTimeout(timer);
  }, []);
  return idle;
}
