import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { AfterFirstPaint } from './after-first-paint.tsx';

/** What was on the page when each part was committed: parts and placeholder by then. */
type Seen = { part: string; partsInPage: number; placeholderInPage: boolean };

function Part({ name, seen }: { name: string; seen: Seen[] }) {
  useEffect(() => {
    seen.push({
      part: name,
      partsInPage: document.querySelectorAll('[data-part]').length,
      placeholderInPage: document.querySelector('[data-placeholder]') !== null,
    });
  }, [name, seen]);
  return <p data-part>{name}</p>;
}

test('renders its children one commit after another, in order, the placeholder until the last', async () => {
  const seen: Seen[] = [];
  render(
    <AfterFirstPaint placeholder={<div data-placeholder />}>
      <Part name="review" seen={seen} />
      <Part name="details" seen={seen} />
      <Part name="documents" seen={seen} />
    </AfterFirstPaint>,
  );
  expect(await screen.findByText('documents')).toBeInTheDocument();
  expect(seen).toEqual([
    { part: 'review', partsInPage: 1, placeholderInPage: true },
    { part: 'details', partsInPage: 2, placeholderInPage: true },
    { part: 'documents', partsInPage: 3, placeholderInPage: false },
  ]);
  expect(screen.getAllByText(/review|details|documents/).map((part) => part.textContent)).toEqual([
    'review',
    'details',
    'documents',
  ]);
});

test('a child that appears later takes its own place, not a shown sibling’s', async () => {
  const seen: Seen[] = [];
  const { rerender } = render(
    <AfterFirstPaint>
      {null}
      <Part name="details" seen={seen} />
    </AfterFirstPaint>,
  );
  expect(await screen.findByText('details')).toBeInTheDocument();
  rerender(
    <AfterFirstPaint>
      <Part name="review" seen={seen} />
      <Part name="details" seen={seen} />
    </AfterFirstPaint>,
  );
  expect(await screen.findByText('review')).toBeInTheDocument();
  // Mounted once: the later child did not take the shown one's position and remount it.
  expect(seen.map((entry) => entry.part)).toEqual(['details', 'review']);
  expect(screen.getAllByText(/review|details/).map((part) => part.textContent)).toEqual([
    'review',
    'details',
  ]);
});
