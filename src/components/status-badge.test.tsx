import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { StatusBadge } from './status-badge.tsx';

function renderBadge(status: string | null) {
  return render(
    <MantineProvider env="test">
      <StatusBadge status={status} />
    </MantineProvider>,
  );
}

test('a status outside the seven (the real service’s "Approved") shows as it came, in grey', () => {
  renderBadge('Approved');
  const badge = screen.getByText('Approved').closest('.mantine-Badge-root');
  expect(badge?.getAttribute('style')).toContain('gray');
});

test('a known status keeps its colour', () => {
  renderBadge('Accepted');
  const badge = screen.getByText('Accepted').closest('.mantine-Badge-root');
  expect(badge?.getAttribute('style')).toContain('green');
});

test('no status says so', () => {
  renderBadge(null);
  expect(screen.getByText('No status')).toBeInTheDocument();
});
