import fs from 'node:fs';
import { BUILT_SERVER_ARGS } from './launch.ts';

describe('BUILT_SERVER_ARGS', () => {
  it('are the arguments `npm start` gives node', () => {
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      scripts: { start: string };
    };
    expect(manifest.scripts.start).toBe(`npm run build && node ${BUILT_SERVER_ARGS.join(' ')}`);
  });
});
