// In a project that installed chain-sim, `"require": ["chain-sim/mocha"]` is all it takes.
// Inside the chain-sim repository itself Mocha resolves --require from its own folder,
// where the package cannot see itself, so this file re-exports the plugin by its public name.
export { mochaHooks } from 'chain-sim/mocha';
