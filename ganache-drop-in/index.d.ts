export { default, GanacheProvider, GanacheServer, provider, server } from 'chain-sim/ganache';
