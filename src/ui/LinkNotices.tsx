/** What an opened link could not use: said once, plainly, with the plan drawn from what remained. */
export function LinkNotices({ notices, onDismiss }: { notices: string[]; onDismiss: () => void }) {
  if (notices.length === 0) return null;
  return (
    <div className="notice" role="status" aria-labelledby="link-notice-title">
      <p id="link-notice-title">
        <strong>Part of this link could not be used.</strong> The plan below uses the defaults for:
      </p>
      <ul>
        {notices.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
