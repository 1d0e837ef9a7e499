// Preloaded by bun test (bunfig.toml): the proxy variables of the shell that started the tests are
// dropped. Bun's own fetch honours HTTP_PROXY, http_proxy and ALL_PROXY for every address, loopback
// too, and many tests hand an adapter no fetch of hey's (hey's own, net/fetch.ts, always goes direct
// to loopback), so on a machine with a proxy set ~325 of them sent their loopback requests to it
// and failed. A test about proxies sets the variables it means, on the process it starts.
const PROXY_VARIABLES = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"];

for (const name of PROXY_VARIABLES) {
  delete process.env[name];
  delete process.env[name.toLowerCase()];
}
