// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// An internal library: its code is inlined into the contracts that use it.
library SafeMath {
  function sub(uint256 a, uint256 b) internal pure returns (uint256) {
    require(b <= a, "SafeMath: subtraction underflow");
    return a - b;
  }
}

/// An external library: contracts call it with DELEGATECALL, at an address linked in at deployment.
library LinkedMath {
  error TooLarge(uint256 value, uint256 limit);

  function capped(uint256 value, uint256 limit) external pure returns (uint256) {
    if (value > limit) revert TooLarge(value, limit);
    return value;
  }
}
