/** The document the API answers for a record, folded until asked for. */
export function ApiDocument({ value }: { value: unknown }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-600">The API&apos;s document</summary>
      <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}
