/**
 * The errors a Hardhat 3 provider throws besides failed executions (HardhatRevertError): Hardhat 3
 * keeps its own classes internal, so these have its shapes (name, `code`, `data`) under their names.
 */
export class ProviderError extends Error {
  data?: unknown;
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export class InvalidArgumentsError extends ProviderError {
  constructor(message: string) {
    super(message, -32602);
    this.name = 'InvalidArgumentsError';
  }
}

export class InvalidInputError extends ProviderError {
  constructor(message: string) {
    super(message, -32000);
    this.name = 'InvalidInputError';
  }
}

/** Hardhat 3's HHE722, for requests to a closed connection. */
export class ProviderClosedError extends Error {
  constructor() {
    super('The provider has been closed. Create a new one with hre.network.create()');
    this.name = 'ProviderClosedError';
  }
}
