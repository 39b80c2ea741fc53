// Loaded with the palette's lazy chunk, not by every page.
import '@mantine/spotlight/styles.css';
import { Group, Input, Kbd, Modal, Text } from '@mantine/core';
import { Spotlight, type SpotlightStore } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useId, useState, type KeyboardEvent } from 'react';
import {
  filterSections,
  type PaletteItem,
  type PaletteSearchState,
  type PaletteSection,
} from '../palette-items.ts';
import classes from './command-palette.module.css';

export interface PaletteDialogProps {
  store: SpotlightStore;
  query: string;
  onQueryChange: (query: string) => void;
  onClose: () => void;
  /** Pages and actions, filtered here by what is typed. */
  commands: PaletteSection[];
  /** The app's entity results, shown as given. */
  search: PaletteSearchState;
}

function statusMessage(query: string, search: PaletteSearchState, count: number): string {
  if (query.trim() === '') return '';
  if (search.pending) return 'Searching…';
  if (search.error) return `The search failed: ${search.error}`;
  if (count === 0) return `Nothing matches “${query.trim()}”.`;
  return count === 1 ? '1 result' : `${count} results`;
}

/**
 * The command palette on Mantine's Spotlight, with listbox semantics: the field is a combobox whose
 * active option follows the arrow keys (kept here, so screen readers hear it and Enter takes it),
 * each option named by its label and described by its description.
 */
export function PaletteDialog({
  store,
  query,
  onQueryChange,
  onClose,
  commands,
  search,
}: PaletteDialogProps) {
  const listId = `palette-${useId().replace(/:/g, '')}`;
  const sections = [...filterSections(commands, query), ...search.sections];
  const items: PaletteItem[] = sections.flatMap((section) => section.items);
  const optionId = (index: number) => `${listId}-option-${index}`;
  // Null means "the first": typing or results arriving select the top one, arrows pick another.
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const found = activeKey === null ? -1 : items.findIndex((item) => item.id === activeKey);
  const active = items.length === 0 ? -1 : Math.max(found, 0);
  const firstIndex = sections.map((_, at) =>
    sections.slice(0, at).reduce((sum, section) => sum + section.items.length, 0),
  );

  const choose = (item: PaletteItem) => {
    onClose();
    item.onSelect();
  };
  const move = (step: number) => {
    if (items.length === 0) return;
    const next = (active + step + items.length) % items.length;
    setActiveKey(items[next]?.id ?? null);
    document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = items[active];
      if (item) choose(item);
    }
  };

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={onQueryChange}
      onSpotlightOpen={() => setActiveKey(null)}
      shortcut={null}
      scrollable
      maxHeight={420}
      size={640}
      yOffset="10vh"
    >
      <Modal.Title className={classes.srOnly}>Command palette</Modal.Title>
      <Input
        data-autofocus
        size="lg"
        classNames={{ input: Spotlight.classes.search }}
        aria-label="Jump to an entity by name or ID, or to a page"
        placeholder="Name, ID or page…"
        leftSection={<IconSearch size={20} stroke={1.5} aria-hidden />}
        value={query}
        onChange={(event) => {
          setActiveKey(null);
          onQueryChange(event.currentTarget.value);
        }}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={items.length > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
      />
      {items.length > 0 && (
        <Spotlight.ActionsList id={listId} role="listbox" aria-label="Results">
          {sections.map((section, sectionIndex) => (
            <div key={section.id} role="group" aria-labelledby={`${listId}-${section.id}`}>
              <Text
                id={`${listId}-${section.id}`}
                className={classes.groupTitle}
                size="xs"
                fw={700}
                c="dimmed"
                tt="uppercase"
              >
                {section.title}
              </Text>
              {section.items.map((item, itemIndex) => {
                const index = (firstIndex[sectionIndex] ?? 0) + itemIndex;
                const isActive = index === active;
                return (
                  <Spotlight.Action
                    key={item.id}
                    // Spotlight.Action drops an `id` prop; aria-activedescendant needs one.
                    ref={(node) => {
                      if (node) node.id = optionId(index);
                    }}
                    role="option"
                    aria-selected={isActive}
                    data-selected={isActive || undefined}
                    aria-labelledby={`${optionId(index)}-label`}
                    aria-describedby={
                      item.description ? `${optionId(index)}-description` : undefined
                    }
                    className={classes.option}
                    onClick={item.onSelect}
                  >
                    {item.icon && (
                      <span
                        className={Spotlight.classes.actionSection}
                        data-position="left"
                        data-dimmed
                      >
                        {item.icon}
                      </span>
                    )}
                    <span className={Spotlight.classes.actionBody}>
                      <span
                        id={`${optionId(index)}-label`}
                        className={Spotlight.classes.actionLabel}
                      >
                        {item.label}
                      </span>
                      {item.description && (
                        <span
                          id={`${optionId(index)}-description`}
                          className={Spotlight.classes.actionDescription}
                        >
                          {item.description}
                        </span>
                      )}
                    </span>
                  </Spotlight.Action>
                );
              })}
            </div>
          ))}
        </Spotlight.ActionsList>
      )}
      <Text role="status" className={classes.status} size="sm" c="dimmed">
        {statusMessage(query, search, items.length)}
      </Text>
      <Spotlight.Footer visibleFrom="sm">
        <Group gap="lg" justify="center" c="dimmed" fz="xs" wrap="wrap">
          <span>
            <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
          </span>
          <span>
            <Kbd size="xs">Enter</Kbd> to open
          </span>
          <span>
            <Kbd size="xs">Esc</Kbd> to close
          </span>
        </Group>
      </Spotlight.Footer>
    </Spotlight.Root>
  );
}
