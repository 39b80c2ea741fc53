// server/assignment/ imports the refresh from here; it moves with that folder's next change.
export { refreshListRecords } from './read-model/list-records.ts';
