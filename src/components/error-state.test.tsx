import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { ErrorState } from './error-state.tsx';

test('shows the message and calls onRetry from the Retry button', async () => {
  const onRetry = vi.fn();
  render(
    <MantineProvider env="test">
      <ErrorState message="limit must be a whole number from 1 to 100." onRetry={onRetry} />
    </MantineProvider>,
  );
  expect(screen.getByRole('alert')).toHaveTextContent(
    'limit must be a whole number from 1 to 100.',
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
  expect(onRetry).toHaveBeenCalledTimes(1);
});
