// What the store throws when a request cannot be met; its message is written for the user.
export class WorkspaceError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'not-a-workspace' | 'newer-schema' | 'exists' | 'invalid' | 'busy' | 'read-only',
  ) {
    super(message);
  }
}
