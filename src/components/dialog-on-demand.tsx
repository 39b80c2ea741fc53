import { useDisclosure } from '@mantine/hooks';
import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';

/**
 * A dialog whose code loads on first use: `wanted` mounts it (closed) from the first opening on,
 * and `opened` turns true only once it is mounted, so Mantine records the element to give focus
 * back to, and the close transition plays.
 */
export function useDialogOnDemand() {
  const [opened, disclosure] = useDisclosure(false);
  const [wanted, setWanted] = useState(false);
  const [mounted, setMounted] = useState(false);
  const open = () => {
    setWanted(true);
    disclosure.open();
  };
  const onMounted = useCallback(() => setMounted(true), []);
  return { opened: opened && mounted, wanted, open, close: disclosure.close, onMounted };
}

function MountSignal({ onMounted }: { onMounted: () => void }) {
  useEffect(onMounted, [onMounted]);
  return null;
}

/**
 * Where a lazy dialog goes: nothing until it is wanted, then the dialog once its code has arrived
 * (a suspended boundary commits neither it nor the signal).
 */
export function DialogOnDemand({
  dialog,
  children,
}: {
  dialog: ReturnType<typeof useDialogOnDemand>;
  children: ReactNode;
}) {
  if (!dialog.wanted) return null;
  return (
    <Suspense fallback={null}>
      {children}
      <MountSignal onMounted={dialog.onMounted} />
    </Suspense>
  );
}
