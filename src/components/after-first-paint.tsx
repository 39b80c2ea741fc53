import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders `children` once the page around it has been committed, in a transition React can pause
 * between components, and `placeholder` until then: for what lies below the fold, so the first
 * paint waits for less. Nothing is left out: it all renders moments later, whether seen or not.
 */
export function AfterFirstPaint({
  children,
  placeholder = null,
}: {
  children: ReactNode;
  placeholder?: ReactNode;
}) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    startTransition(() => setShown(true));
  }, []);
  return <>{shown ? children : placeholder}</>;
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
