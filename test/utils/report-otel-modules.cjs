// Preloaded into a built server or worker under test (node --require): on SIGUSR2 it prints which OpenTelemetry
// packages the process has loaded, so a test can tell whether the tracing SDK was started at all.
process.on('SIGUSR2', () => {
  const loaded = new Set();
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules\/(@opentelemetry\/[^/]+)\//.exec(file);
    if (m) loaded.add(m[1]);
  }
  process.stderr.write(`opentelemetry packages loaded: ${JSON.stringify([...loaded].sort())}\n`);
});
