const RESET_COMMAND = 'npm run admin -- account:reset-password demo';

/**
 * The start-up lines about a new demo account. Its password goes to a terminal only: piped or
 * redirected output usually ends in a service log (systemd, docker logs), which keeps it for good.
 */
export function demoAccountNotice(
  demo: { username: string; password: string },
  toTerminal: boolean,
): string[] {
  if (toTerminal) {
    return [
      `Demo data loaded. Sign in as "${demo.username}" with password: ${demo.password}`,
      `(printed once; reset it with: ${RESET_COMMAND})`,
    ];
  }
  return [
    `Demo data loaded with the account "${demo.username}". Its password is printed only to a terminal, never to a log.`,
    `Set a password to sign in with: ${RESET_COMMAND}`,
  ];
}
