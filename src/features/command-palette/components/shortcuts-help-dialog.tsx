import { Fragment } from 'react';
import { Kbd, Modal, Table, Text } from '@mantine/core';
import { shortcuts } from '../shortcuts.ts';

/** The list of keyboard shortcuts, opened with `?`, from the palette or from the header. */
export function ShortcutsHelpDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  /** Also puts focus back: Mantine's own return would aim at the palette when the help came from there. */
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Keyboard shortcuts"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      returnFocus={false}
    >
      <Table verticalSpacing="sm" aria-label="Keyboard shortcuts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={150}>
              Keys
            </Table.Th>
            <Table.Th scope="col">What they do</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shortcuts().map((shortcut) => (
            <Table.Tr key={shortcut.description}>
              <Table.Td>
                {shortcut.keys.map((combination, at) => (
                  <Fragment key={combination.join('+')}>
                    {at > 0 && (
                      <Text span c="dimmed" size="sm">
                        {' or '}
                      </Text>
                    )}
                    {combination.map((key, keyAt) => (
                      <Fragment key={key}>
                        {keyAt > 0 && ' + '}
                        <Kbd>{key}</Kbd>
                      </Fragment>
                    ))}
                  </Fragment>
                ))}
              </Table.Td>
              <Table.Td>{shortcut.description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
