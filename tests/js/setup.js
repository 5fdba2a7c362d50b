// The little of a browser that the pure modules touch when they load (i18n.js reads the
// address, the stored language and the catalog): English, no storage. Import this first.
globalThis.location = new URL("http://127.0.0.1/t/test");
globalThis.navigator = { languages: ["en"], language: "en" };
globalThis.window = globalThis;
globalThis.fetch = async () => ({ ok: true, json: async () => ({ lang: "en", plural: "(n != 1)", messages: {} }) });
