import { groupLinks } from './linked-people.tsx';

test('puts the primary contact first and merges the roles of one person', () => {
  expect(
    groupLinks([
      { relationship: 'CEO', entityID: 'a' },
      { relationship: 'Director', entityID: 'b' },
      { relationship: 'Primary Contact', entityID: 'b' },
      { entityID: 'c' },
      { relationship: 'CEO', entityID: 'a' },
    ]),
  ).toEqual([
    { entityId: 'b', relationships: ['Primary Contact', 'Director'] },
    { entityId: 'a', relationships: ['CEO'] },
    { entityId: 'c', relationships: [] },
  ]);
});
