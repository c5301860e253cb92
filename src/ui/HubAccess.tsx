import { useId, useState } from "react";

interface HubAccessProps {
  hubUrl: string;
  defaultHubUrl: string;
  hasToken: boolean;
  tokenRemembered: boolean;
  /** Open when the Hub asked for a token (a gated repo). */
  open: boolean;
  /** Returns why the token cannot be used, or null. */
  onToken: (token: string, rememberInTab: boolean) => string | null;
  onForgetToken: () => void;
  /** Returns why the address cannot be used, or null. */
  onHubUrl: (text: string) => string | null;
}

/**
 * The token and the Hub's address. The token goes to the Hub's token store
 * (memory, or this tab's sessionStorage when asked): never into the plan
 * link, localStorage or a log.
 */
export function HubAccess({
  hubUrl,
  defaultHubUrl,
  hasToken,
  tokenRemembered,
  open,
  onToken,
  onForgetToken,
  onHubUrl,
}: HubAccessProps) {
  const tokenId = useId();
  const rememberId = useId();
  const urlId = useId();
  const [token, setToken] = useState("");
  const [remember, setRemember] = useState(tokenRemembered);
  const [tokenProblem, setTokenProblem] = useState<string | null>(null);
  const [urlText, setUrlText] = useState<string | null>(null);
  const [urlProblem, setUrlProblem] = useState<string | null>(null);
  return (
    <details className="hub-access" open={open || undefined}>
      <summary>
        Hub access{hasToken ? " · token set" : ""}
        {hubUrl !== defaultHubUrl ? ` · ${hubUrl}` : ""}
      </summary>
      <form
        className="token-form"
        onSubmit={(e) => {
          e.preventDefault();
          const why = onToken(token, remember);
          setTokenProblem(why);
          if (why === null) setToken("");
        }}
      >
        <div className="field grow">
          <label htmlFor={tokenId}>Read token for gated or private repos</label>
          <input
            id={tokenId}
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={hasToken ? "a token is set" : "hf_…"}
            value={token}
            aria-invalid={tokenProblem ? true : undefined}
            aria-describedby={tokenProblem ? `${tokenId}-error` : undefined}
            onChange={(e) => setToken(e.target.value)}
          />
          {tokenProblem ? (
            <span id={`${tokenId}-error`} className="error" role="alert">
              {tokenProblem}
            </span>
          ) : null}
        </div>
        <div className="field checkbox">
          <input id={rememberId} type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <label htmlFor={rememberId}>remember in this tab</label>
        </div>
        <div className="button-row">
          <button type="submit" disabled={token.trim() === ""}>
            Use token
          </button>
          {hasToken ? (
            <button type="button" className="secondary" onClick={onForgetToken}>
              Forget token
            </button>
          ) : null}
        </div>
      </form>
      <p className="hint">The token is sent only to the Hub, never put in a plan link or kept after this tab closes.</p>
      <form
        className="url-form"
        onSubmit={(e) => {
          e.preventDefault();
          const why = onHubUrl(urlText ?? hubUrl);
          setUrlProblem(why);
          if (why === null) setUrlText(null);
        }}
      >
        <div className="field grow">
          <label htmlFor={urlId}>Hub address</label>
          <input
            id={urlId}
            type="url"
            spellCheck={false}
            value={urlText ?? hubUrl}
            aria-invalid={urlProblem ? true : undefined}
            aria-describedby={`${urlId}-hint`}
            onChange={(e) => setUrlText(e.target.value)}
          />
          <span id={`${urlId}-hint`} className={urlProblem ? "error" : "hint"}>
            {urlProblem ??
              `A mirror or an enterprise hub; ${defaultHubUrl} by default. The page's security policy must allow its address.`}
          </span>
        </div>
        <button type="submit" className="secondary">
          Set address
        </button>
      </form>
    </details>
  );
}
