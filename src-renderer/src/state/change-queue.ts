// The user's quick changes (deletes, renames, marks, edits) and their undo and redo run one at
// a time, in the order the user made them. The tree follows the change events, which can
// arrive before the call that caused them answers: a Ctrl+Z pressed as soon as a delete shows
// must wait for that delete to be recorded, or it takes back the change before it instead.
let last: Promise<unknown> = Promise.resolve();

export function inTurn<T>(change: () => Promise<T>): Promise<T> {
  const turn = last.then(change);
  last = turn.catch(() => undefined);
  return turn;
}
