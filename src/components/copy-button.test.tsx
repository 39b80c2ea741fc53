import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CopyButton } from './copy-button.tsx';

const NO_TOOLTIP_TRANSITION = {
  components: { Tooltip: { defaultProps: { transitionProps: { duration: 0 } } } },
};

function renderButton() {
  const user = userEvent.setup();
  render(
    // The tooltip's open transition would set state in an animation frame after the test's end.
    <MantineProvider env="test" theme={NO_TOOLTIP_TRANSITION}>
      <CopyButton value="3f1c2a9e-0000-4000-8000-000000000001" label="entity ID" />
    </MantineProvider>,
  );
  return user;
}

test('writes the value to the clipboard and says so', async () => {
  const user = renderButton();
  const writeText = vi.spyOn(navigator.clipboard, 'writeText');
  await user.click(screen.getByRole('button', { name: 'Copy entity ID' }));
  expect(writeText).toHaveBeenCalledWith('3f1c2a9e-0000-4000-8000-000000000001');
  expect(await screen.findByRole('status')).toHaveTextContent('Copied');
  await expect(navigator.clipboard.readText()).resolves.toBe(
    '3f1c2a9e-0000-4000-8000-000000000001',
  );
});

test('says when the browser refuses the clipboard', async () => {
  const user = renderButton();
  vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
  await user.click(screen.getByRole('button', { name: 'Copy entity ID' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Copy failed');
});
