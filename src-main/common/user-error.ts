// An error the user caused and can fix; its message says how.
export class UserError extends Error {
  constructor(
    message: string,
    readonly code = 'user-error',
  ) {
    super(message);
  }
}
