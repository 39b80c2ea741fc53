import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/** The entity the page on screen shows, for the palette's actions on it ("Assign to…"). */
export interface PaletteEntity {
  id: string;
  name: string;
}

const PaletteEntityContext = createContext<{
  entity: PaletteEntity | null;
  setEntity: (entity: PaletteEntity | null) => void;
}>({ entity: null, setEntity: () => undefined });

export function PaletteEntityProvider({ children }: { children: ReactNode }) {
  const [entity, setEntity] = useState<PaletteEntity | null>(null);
  return (
    <PaletteEntityContext.Provider value={{ entity, setEntity }}>
      {children}
    </PaletteEntityContext.Provider>
  );
}

/** The entity on screen, or null on any other page. */
export function usePaletteEntity(): PaletteEntity | null {
  return useContext(PaletteEntityContext).entity;
}

/** Offers the page's entity to the palette while the page shows it. */
export function useOfferEntityToPalette(entity: PaletteEntity | null): void {
  const { setEntity } = useContext(PaletteEntityContext);
  const id = entity?.id;
  const name = entity?.name;
  useEffect(() => {
    if (id === undefined || name === undefined) return undefined;
    setEntity({ id, name });
    return () => setEntity(null);
  }, [id, name, setEntity]);
}
