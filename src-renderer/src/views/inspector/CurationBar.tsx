import { useState } from 'react';
import { addTag, removeTag, setCuration, toggleStar } from '../../state/curation-actions';
import type { TreeNode } from '../../state/tree-rows';

/**
 * Star, rating, tags and a note for the selected node. Each change is saved at once and can be undone.
 * The marks are the tree's; the note is only in the full record, so it waits for it (null until then).
 */
export function CurationBar({ id, marks, note }: { id: string; marks: Pick<TreeNode, 'starred' | 'rating' | 'tags'>; note: string | null }) {
  const { starred, rating, tags } = marks;
  const [tag, setTag] = useState('');
  // A tag half typed belongs to the node it was typed for. The bar itself stays mounted as the
  // selection moves: rebuilding its fields for every node passed costs a frame in a large tree.
  const [tagFor, setTagFor] = useState(id);
  if (tagFor !== id) {
    setTagFor(id);
    setTag('');
  }
  return (
    <section className="curation" aria-label="Curation">
      <div className="curation-row">
        <button className={`star-button${starred ? ' on' : ''}`} aria-pressed={starred} onClick={() => void toggleStar(id)} title="Star (s)">
          {starred ? '★ Starred' : '☆ Star'}
        </button>
        <span className="rating" role="radiogroup" aria-label="Rating">
          {[1, 2, 3, 4, 5].map((r) => (
            <button
              key={r}
              role="radio"
              aria-checked={rating === r}
              aria-label={`Rate ${r} of 5`}
              className={`rating-button${rating !== null && r <= rating ? ' on' : ''}`}
              onClick={() => void setCuration(id, { rating: rating === r ? null : r })}
              title={`Rate ${r} (key ${r}); again to clear`}
            >
              {r}
            </button>
          ))}
        </span>
        <span className="spacer" />
        <span className="muted small" title="Every change is written to the workspace file at once">
          Saved automatically
        </span>
      </div>
      <div className="curation-row tags" aria-label="Tags">
        {tags.map((t) => (
          <span key={t} className="tag-chip">
            {t}
            <button className="link" aria-label={`Remove tag ${t}`} onClick={() => void removeTag(id, t)}>
              ×
            </button>
          </span>
        ))}
        <form
          className="tag-form"
          onSubmit={(e) => {
            e.preventDefault();
            void addTag(id, tag).then(() => setTag(''));
          }}
        >
          <input aria-label="Add a tag" placeholder="add tag (t)" value={tag} maxLength={64} onChange={(e) => setTag(e.target.value)} data-shortcut-target="tag" />
        </form>
      </div>
      {note === null ? (
        <textarea aria-label="Note" placeholder="Loading the note…" rows={1} disabled />
      ) : (
        <NoteField key={`${id}:${note}`} id={id} note={note} />
      )}
    </section>
  );
}

/** The note, saved when the field loses focus; keyed by the node and its saved note so an undo shows through. */
function NoteField({ id, note }: { id: string; note: string }) {
  const [draft, setDraft] = useState(note);
  return (
    <textarea
      aria-label="Note"
      placeholder="Note (saved when you leave the field)"
      rows={draft ? 3 : 1}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => {
        if (draft !== note) void setCuration(id, { note: draft });
      }}
    />
  );
}
