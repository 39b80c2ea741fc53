import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import checksums from './checksums.json' with { type: 'json' };
import { MIGRATIONS } from './index.ts';

/** The released migrations and their frozen helpers, as the checksum list names them. */
const folder = import.meta.dirname;
const frozenFiles = [
  ...fs.readdirSync(folder).filter((name) => /^\d{4}_[a-z0-9_]+\.ts$/.test(name)),
  ...fs.readdirSync(path.join(folder, 'helpers')).map((name) => `helpers/${name}`),
].sort();

const sha256Of = (file: string) =>
  crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(folder, file)))
    .digest('hex');

describe('frozen migrations', () => {
  it.each(Object.keys(checksums))('%s is as it was released', (file) => {
    expect(
      sha256Of(file),
      `${file} changed after release: write a new migration instead (docs/migrations.md)`,
    ).toBe(checksums[file as keyof typeof checksums]);
  });

  it('lists every migration and helper in checksums.json', () => {
    const unlisted = frozenFiles
      .filter((file) => !(file in checksums))
      .map((file) => `"${file}": "${sha256Of(file)}"`);
    expect(unlisted, 'add these lines to checksums.json when the migration is final').toEqual([]);
  });

  it('applies every migration file, in the order of its key, under its file name', () => {
    const keys = MIGRATIONS.map(([key]) => key);
    expect(keys).toEqual([...keys].sort());
    expect(keys.map((key) => `${key}.ts`)).toEqual(
      frozenFiles.filter((file) => !file.startsWith('helpers/')),
    );
  });

  it('imports nothing but Kysely and its own frozen helpers', () => {
    for (const file of frozenFiles) {
      const text = fs.readFileSync(path.join(folder, file), 'utf8');
      const sources = [...text.matchAll(/^import[^;]*?from '([^']+)';/gms)].map((m) => m[1]);
      for (const source of sources) {
        expect(
          source === 'kysely' || /^\.\/(helpers\/)?\d{4}-[a-z0-9-]+\.ts$/.test(source ?? ''),
          `${file} imports ${source ?? '?'}`,
        ).toBe(true);
      }
    }
  });
});
