import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { ReviewDateBadge, reviewUrgency } from './review-date-badge.tsx';

const today = new Date('2026-06-10T12:00:00Z');

function renderBadge(date: string | null) {
  return render(
    <MantineProvider env="test">
      <ReviewDateBadge date={date} today={today} />
    </MantineProvider>,
  );
}

test('classifies dates by days to go', () => {
  expect(reviewUrgency('2026-06-09', today)).toBe('overdue');
  expect(reviewUrgency('2026-06-10', today)).toBe('due-soon');
  expect(reviewUrgency('2026-07-10', today)).toBe('due-soon');
  expect(reviewUrgency('2026-07-11', today)).toBe('scheduled');
});

test('an overdue date says by how much', () => {
  renderBadge('2026-06-01');
  expect(screen.getByText('1 Jun 2026')).toBeInTheDocument();
  expect(screen.getByText('Overdue by 9 days')).toBeInTheDocument();
});

test('a date within 30 days says it is due soon', () => {
  renderBadge('2026-06-11');
  expect(screen.getByText('Due in 1 day')).toBeInTheDocument();
});

test('a distant date shows only the date', () => {
  renderBadge('2027-01-15');
  expect(screen.getByText('15 Jan 2027')).toBeInTheDocument();
  expect(screen.queryByText(/Overdue|Due/)).not.toBeInTheDocument();
});

test('no date shows a dash', () => {
  renderBadge(null);
  expect(screen.getByText('—')).toBeInTheDocument();
});
