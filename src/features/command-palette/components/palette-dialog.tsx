import { Group, Kbd, Modal, Text } from '@mantine/core';
import { Spotlight, useSpotlight, type SpotlightStore } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId } from 'react';
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
 * The command palette on Mantine's Spotlight (its own markup inside each action, so the label
 * names the option and the description describes it), with listbox semantics added: the search field is a
 * combobox whose active option follows the arrow keys, so screen readers announce the selection.
 */
export function PaletteDialog({
  store,
  query,
  onQueryChange,
  commands,
  search,
}: PaletteDialogProps) {
  const { opened, selected } = useSpotlight(store);
  const listId = `palette-${useId().replace(/:/g, '')}`;
  const sections = [...filterSections(commands, query), ...search.sections];
  const items: PaletteItem[] = sections.flatMap((section) => section.items);
  const optionId = (index: number) => `${listId}-option-${index}`;
  const signature = items.map((item) => item.id).join('\n');

  // Whatever arrives, the first choice is the one Enter takes (Spotlight only resets on typing).
  useEffect(() => {
    if (!opened) return;
    store.updateState((state) => ({ ...state, selected: signature === '' ? -1 : 0 }));
  }, [opened, signature, store]);

  const active = selected >= 0 && selected < items.length ? selected : -1;
  const firstIndex = sections.map((_, at) =>
    sections.slice(0, at).reduce((sum, section) => sum + section.items.length, 0),
  );

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={onQueryChange}
      shortcut={null}
      scrollable
      maxHeight={420}
      size={640}
      yOffset="10vh"
    >
      <Modal.Title className={classes.srOnly}>Command palette</Modal.Title>
      <Spotlight.Search
        aria-label="Jump to an entity by name or ID, or to a page"
        placeholder="Name, ID or page…"
        leftSection={<IconSearch size={20} stroke={1.5} aria-hidden />}
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
