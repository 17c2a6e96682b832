// The same package loaded with require() from CommonJS (Node >= 20.19 loads its ES modules).
import kit = require('exchange-api-kit');
import conformance = require('exchange-api-kit/conformance');

async function main(): Promise<void> {
  const mock = await kit.startMockServer({ port: 0 });
  try {
    const { v3, control } = kit.mockClients(mock);
    const ping = await v3.ping();
    const clock = (await control.getClock()).body.result;
    console.log(
      JSON.stringify({
        exports: Object.keys(kit).sort(),
        conformanceExports: Object.keys(conformance).sort(),
        ping: ping.status,
        frozen: typeof clock.frozen,
        tags: conformance.knownNames().tags.length,
      }),
    );
  } finally {
    await mock.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
