import { screen } from '@testing-library/react';
import { renderRoute } from '../testing/render.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

function Exploding(): never {
  throw new Error('Duplicate options are not supported');
}

test('a screen that throws shows the error and a way out, not a blank page', async () => {
  // React logs the caught render error; this test expects exactly that.
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  renderRoute(<Exploding />, { errorElement: <RouteErrorPage /> });
  expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  expect(screen.getByText('Duplicate options are not supported')).toBeVisible();
  expect(screen.getByRole('link', { name: 'Go to entities' })).toHaveAttribute('href', '/entities');
  spy.mockRestore();
});
