import { Button } from '@mantine/core';
import { screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { renderRoute } from '../testing/render.tsx';
import { DateField, parseTypedDate } from './date-field.tsx';

// Typing re-renders the calendar on every key; the shared test machine can be slow.
vi.setConfig({ testTimeout: 20_000 });

test.each([
  ['4 Mar 2020', '2020-03-04'],
  ['4 March 2020', '2020-03-04'],
  ['4th of March, 2020', '2020-03-04'],
  ['March 4, 2020', '2020-03-04'],
  ['2020-03-04', '2020-03-04'],
  ['4/3/2020', '2020-03-04'],
  ['04.03.2020', '2020-03-04'],
  ['29 Feb 2024', '2024-02-29'],
])('"%s" is %s', (typed, expected) => {
  expect(parseTypedDate(typed)).toBe(expected);
});

test.each([
  '4 Mar 202',
  '4 Ma 2020',
  '31 Feb 2020',
  '13/13/2020',
  '2020-02-30',
  '4 Mar',
  'soon',
  '',
])('"%s" is not a date yet', (typed) => {
  expect(parseTypedDate(typed)).toBeNull();
});

function DateForm({ initial, onSubmit }: { initial: string; onSubmit: (day: string) => void }) {
  const form = useForm<{ day: string }>({ defaultValues: { day: initial } });
  return (
    <form onSubmit={(event) => void form.handleSubmit((values) => onSubmit(values.day))(event)}>
      <DateField control={form.control} name="day" label="Next review date" />
      <Button type="submit">Save</Button>
    </form>
  );
}

test('typing "4 March 2020" gives the form 2020-03-04 and shows 4 Mar 2020', async () => {
  const onSubmit = vi.fn();
  const { user } = renderRoute(<DateForm initial="" onSubmit={onSubmit} />);
  const input = await screen.findByRole('textbox', { name: 'Next review date' });
  await user.type(input, '4 March 2020');
  await user.tab();
  expect(input).toHaveValue('4 Mar 2020');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(onSubmit).toHaveBeenCalledWith('2020-03-04');
});

test('a stored date shows day first, and emptying the field gives an empty string', async () => {
  const onSubmit = vi.fn();
  const { user } = renderRoute(<DateForm initial="2026-11-25" onSubmit={onSubmit} />);
  const input = await screen.findByRole('textbox', { name: 'Next review date' });
  expect(input).toHaveValue('25 Nov 2026');
  await user.clear(input);
  await user.tab();
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(onSubmit).toHaveBeenCalledWith('');
});

test('a day-first date typed with slashes is read day first', async () => {
  const onSubmit = vi.fn();
  const { user } = renderRoute(<DateForm initial="" onSubmit={onSubmit} />);
  const input = await screen.findByRole('textbox', { name: 'Next review date' });
  await user.type(input, '4/3/2020');
  await user.tab();
  expect(input).toHaveValue('4 Mar 2020');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(onSubmit).toHaveBeenCalledWith('2020-03-04');
});
