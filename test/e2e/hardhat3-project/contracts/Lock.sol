// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Holds the ether it was deployed with until `unlockTime`, then lets its owner take it.
contract Lock {
    error TooEarly(uint256 unlockTime, uint256 timestamp);
    error NotOwner(address caller);

    event Withdrawal(uint256 amount, uint256 when);

    address payable public immutable owner;
    uint256 public immutable unlockTime;
    uint256 public pokes;

    constructor(uint256 unlockTime_) payable {
        require(block.timestamp < unlockTime_, "unlock time must be in the future");
        unlockTime = unlockTime_;
        owner = payable(msg.sender);
    }

    function poke() external {
        pokes += 1;
    }

    function withdraw() external {
        if (block.timestamp < unlockTime) revert TooEarly(unlockTime, block.timestamp);
        if (msg.sender != owner) revert NotOwner(msg.sender);
        uint256 amount = address(this).balance;
        emit Withdrawal(amount, block.timestamp);
        owner.transfer(amount);
    }
}
