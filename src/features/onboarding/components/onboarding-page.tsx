import { Title } from '@mantine/core';

/** STUB: replaced by the onboarding work. */
export function OnboardingPage() {
  return <Title order={1}>Onboard a legal entity</Title>;
}
