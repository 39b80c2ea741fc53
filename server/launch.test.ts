import fs from 'node:fs';
import { builtServerCommand } from './launch.ts';

describe('BUILT_SERVER_ARGS and BUILT_SERVER_ENV', () => {
  it('are the arguments and environment `npm start` gives node', () => {
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      scripts: { start: string };
    };
    expect(manifest.scripts.start).toBe(`npm run build && ${builtServerCommand()}`);
  });
});
