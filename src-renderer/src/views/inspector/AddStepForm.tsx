import { useState } from 'react';
import { addManualStep } from '../../state/workspace-actions';

/** A step typed by hand under the selected node (origin `manual`). */
export function AddStepForm({ parentId }: { parentId: string }) {
  const [action, setAction] = useState('');
  const [observation, setObservation] = useState('');
  return (
    <form
      className="add-step"
      aria-label="Add a step by hand"
      onSubmit={(e) => {
        e.preventDefault();
        void addManualStep(parentId, action, observation).then((n) => {
          if (n) {
            setAction('');
            setObservation('');
          }
        });
      }}
    >
      <h3>Add a step by hand</h3>
      <label>
        Action
        <textarea value={action} onChange={(e) => setAction(e.target.value)} rows={2} spellCheck={false} />
      </label>
      <label>
        Observation
        <textarea value={observation} onChange={(e) => setObservation(e.target.value)} rows={4} spellCheck={false} />
      </label>
      <button type="submit" disabled={!action.trim()}>
        Add step
      </button>
    </form>
  );
}
