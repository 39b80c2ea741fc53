import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Reviewer } from '../../../../contract/assignment.ts';
import { reviewerQueries } from '../api/reviewer-queries.ts';

/** "Alice Doe (alice)", or the username alone when the account has no other name. */
export function reviewerLabel(reviewer: Reviewer): string {
  return reviewer.name && reviewer.name !== reviewer.username
    ? `${reviewer.name} (${reviewer.username})`
    : reviewer.username;
}

export interface ReviewerSelectProps {
  value: string | null;
  onChange: (username: string | null) => void;
  error?: string | null;
  /** Focus it when its dialog opens. */
  autoFocus?: boolean;
}

/** Picks one of the reviewers the server can assign, searchable by name or username. */
export function ReviewerSelect({ value, onChange, error, autoFocus = false }: ReviewerSelectProps) {
  const reviewers = useQuery(reviewerQueries.list());
  return (
    <Select
      label="Reviewer"
      placeholder={reviewers.isPending ? 'Loading reviewers…' : 'Choose a reviewer'}
      required
      searchable
      nothingFoundMessage="No such reviewer"
      data-autofocus={autoFocus || undefined}
      value={value}
      onChange={onChange}
      data={(reviewers.data ?? []).map((reviewer) => ({
        value: reviewer.username,
        label: reviewerLabel(reviewer),
      }))}
      error={error ?? (reviewers.isError ? 'The reviewers could not be loaded.' : undefined)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
