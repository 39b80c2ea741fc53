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
