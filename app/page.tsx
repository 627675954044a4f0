import { CodeBlock } from "@/components/ui/code-block";

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl space-y-8 px-6 py-12">
      <header className="space-y-2">
        <h1 className="text-3xl font-semibold">Location platform</h1>
        <p className="text-slate-600">
          Geofences, tracking, events and context on your own server, through Radar&apos;s public v1 API.
          Point existing Radar clients at this address and keep your data.
        </p>
      </header>
      <p>
        <a
          href="/login"
          className="inline-block rounded bg-slate-900 px-4 py-2 text-sm font-medium text-white"
        >
          Sign in to the dashboard
        </a>
      </p>
      <section className="space-y-3" aria-labelledby="try">
        <h2 id="try" className="text-xl font-semibold">
          Try it
        </h2>
        <p className="text-slate-600">
          The first start printed a test secret key and a test publishable key. Keys are stored hashed, so
          they are not shown again: <code>npm run keys -- create</code> makes new ones and{" "}
          <code>npm run keys -- list</code> shows which exist.
        </p>
        <CodeBlock>
          {`curl -X POST http://localhost:3000/v1/geofences \\
  -H "Authorization: prj_test_sk_..." \\
  -H "Content-Type: application/json" \\
  -d '{"description": "HQ", "type": "circle", "radius": 100,
       "coordinates": [-73.9754, 40.7838], "tag": "office", "externalId": "hq"}'`}
        </CodeBlock>
      </section>
      <section className="space-y-3" aria-labelledby="track">
        <h2 id="track" className="text-xl font-semibold">
          Track a device
        </h2>
        <p className="text-slate-600">
          Apps send locations with the publishable key; entering, leaving and dwelling in geofences become
          events that you list, and verify, with the secret key.
        </p>
        <CodeBlock>
          {`curl -X POST http://localhost:3000/v1/track \\
  -H "Authorization: prj_test_pk_..." \\
  -d deviceId=phone-1 -d userId=ann \\
  -d latitude=40.7838 -d longitude=-73.9754 -d accuracy=10

curl http://localhost:3000/v1/events -H "Authorization: prj_test_sk_..."`}
        </CodeBlock>
      </section>
      <footer className="text-sm text-slate-500">
        API: <code>/v1</code> · Health: <code>/healthz</code>
      </footer>
    </main>
  );
}
