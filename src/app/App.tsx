/** The page's shell; the planner page (issue 5) grows from here. */
export function App() {
  return (
    <main>
      <h1>Modelplan</h1>
      <p>Will this model fit my cluster, and how should it be split?</p>
    </main>
  );
}
