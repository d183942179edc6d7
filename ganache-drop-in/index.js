// require('ganache') and `import ganache from 'ganache'`: Ganache 7's provider() and server(), on chain-sim.
export { default, GanacheProvider, GanacheServer, provider, server } from 'chain-sim/ganache';
