// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/** Every way a transaction can fail that Hardhat's chai matchers tell apart. */
contract Reverter {
    error Unauthorized(address caller, uint256 code);

    uint256 public counter;
    uint256[] private items;

    function bump() external { counter += 1; }
    function withoutReason() external { counter += 1; revert(); }
    function requireWithoutReason(bool ok) external { counter += 1; require(ok); }
    function withReason() external { counter += 1; revert("nope: not allowed"); }
    function withCustomError() external { counter += 1; revert Unauthorized(msg.sender, 42); }
    function withPanic() external returns (uint256) { counter += 1; return items[7]; }
    function divide(uint256 a, uint256 b) external returns (uint256) { counter += 1; return a / b; }
    function burn() external { counter += 1; while (true) { items.push(counter); } }
    function viewReason() external pure { revert("view says no"); }
}
