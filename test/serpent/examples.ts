// Example programs. Those marked 'verbatim' are byte-for-byte copies of files
// in github.com/ethereum/serpent (path and branch noted); the others are
// written here where the reference has no HEAD-syntax version.

/** verbatim: ethereum/serpent HEAD:examples/mul2.se */
export const MUL2 = `def double(v):
    return(v*2)
`;

/** verbatim: ethereum/serpent HEAD:examples/namecoin.se */
export const NAMECOIN = `def register(k, v):
    if !self.storage[k]: # Is the key not yet taken?
        # Then take it!
        self.storage[k] = v
        return(1)
    else:
        return(0) // Otherwise do nothing
`;

/** verbatim: ethereum/serpent HEAD:examples/crowdfund.se */
export const CROWDFUND = `data campaigns[2^80](recipient, goal, deadline, contrib_total, contrib_count, contribs[2^50](sender, value))

def create_campaign(id, recipient, goal, timelimit):
    if self.campaigns[id].recipient:
        return(0)
    self.campaigns[id].recipient = recipient
    self.campaigns[id].goal = goal
    self.campaigns[id].deadline = block.timestamp + timelimit

def contribute(id):
    # Update contribution total
    total_contributed = self.campaigns[id].contrib_total + msg.value
    self.campaigns[id].contrib_total = total_contributed

    # Record new contribution
    sub_index = self.campaigns[id].contrib_count
    self.campaigns[id].contribs[sub_index].sender = msg.sender
    self.campaigns[id].contribs[sub_index].value = msg.value
    self.campaigns[id].contrib_count = sub_index + 1

    # Enough funding?
    if total_contributed >= self.campaigns[id].goal:
        send(self.campaigns[id].recipient, total_contributed)
        self.clear(id)
        return(1)

    # Expired?
    if block.timestamp > self.campaigns[id].deadline:
        i = 0
        c = self.campaigns[id].contrib_count
        while i < c:
            send(self.campaigns[id].contribs[i].sender, self.campaigns[id].contribs[i].value)
            i += 1
        self.clear(id)
        return(2)

def progress_report(id):
    return(self.campaigns[id].contrib_total)

# Clearing function for internal use
def clear(id):
    if self == msg.sender:
        self.campaigns[id].recipient = 0
        self.campaigns[id].goal = 0
        self.campaigns[id].deadline = 0
        c = self.campaigns[id].contrib_count
        self.campaigns[id].contrib_count = 0
        self.campaigns[id].contrib_total = 0
        i = 0
        while i < c:
            self.campaigns[id].contribs[i].sender = 0
            self.campaigns[id].contribs[i].value = 0
            i += 1
`;

/** verbatim: ethereum/serpent master:examples/cyberdyne/subcurrency.se */
export const SUBCURRENCY = `# cyberdyne subcurrency contract

data owner
data last_tx(from, to, amount, tx_id)
data user_balances[2**160]

def init():
    self.owner = msg.sender

def balance(addr):
    return(self.user_balances[addr])

def send(recipient, amount):
    from = msg.sender
    from_balance = self.user_balances[from]
    if from_balance >= amount and amount > 0:
        self.user_balances[from] -= amount
        self.user_balances[recipient] += amount

        self.last_tx.from = from
        self.last_tx.to = recipient
        self.last_tx.amount = amount
        self.last_tx.tx_id += 1
        return(1)
    return(0)

# Admin can issue at will
def issue(recipient, amount):
    if msg.sender == self.owner:
        self.user_balances[recipient] += amount

# Change admin
# Set admin to 0 to disable administration
def change_ownership(new_owner):
    if msg.sender == self.owner:
        self.owner = new_owner

# Fetch last transaction
def last_tx():
    return([self.last_tx.from, self.last_tx.to, self.last_tx.amount, self.last_tx.tx_id]:arr)
`;

/** verbatim: ethereum/serpent HEAD:examples/mathfuncs/fixedpoint.se */
export const FIXEDPOINT = `type f: [a, b, c, d, e]

macro f($a) + f($b):
    f(add($a, $b))

macro f($a) - f($b):
    f(sub($a, $b))

macro f($a) * f($b):
    f(mul($a, $b) / 10000)

macro f($a) / f($b):
    f(sdiv($a * 10000, $b))

macro f($a) % f($b):
    f(smod($a, $b))

macro f($v) = f($w):
    $v = $w

macro unfify(f($a)):
    $a / 10000

macro fify($a):
    f($a * 10000)

a = fify(5)
b = fify(2)
c = a / b
e = c + (a / b)
return(unfify(e))
`;

/** verbatim: ethereum/serpent HEAD:examples/mathfuncs/collatz.se */
export const COLLATZ = `def collatz(x):
    steps = 0
    
    while x > 1:
        steps += 1
        if x % 2 == 0:
            x /= 2
        else:
            x = 3 * x + 1
    
    return(steps)
`;

/** verbatim: ethereum/serpent HEAD:examples/datafeed.se */
export const DATAFEED = `# Database updateable only by the original creator
data creator

def init():
    self.creator = msg.sender

def update(k, v):
    if msg.sender == self.creator:
        self.storage[k] = v

def query(k):
    return(self.storage[k])
`;

/** verbatim: ethereum/serpent HEAD:examples/short_namecoin.se */
export const SHORT_NAMECOIN = `def register(k, v):
    if !self.storage[k]:
        self.storage[k] = v
`;

/**
 * Merge sort. The reference's examples/mergesort.se (2014, later renamed to
 * quicksort.se) is written in pre-ABI Serpent (msg.data, contract.address,
 * call(addr, arr, n, outn)) that the HEAD compiler no longer accepts. This is
 * a HEAD-syntax merge sort that keeps the original's structure: sub-arrays are
 * sorted by recursive message calls to the same contract.
 */
export const MERGESORT = `# Merge sort over int256 arrays; sub-arrays are sorted by recursive calls to
# this same contract, like the original examples/mergesort.se (which used the
# pre-ABI msg.data / contract.address / call(...) forms).
def sort(args:arr):
    n = len(args)
    if n < 2:
        return(args:arr)
    h = n / 2
    left = self.sort(slice(args, items=0, items=h), outitems=h)
    right = self.sort(slice(args, items=h, items=n), outitems=n - h)
    o = array(n)
    i = 0
    j = 0
    k = 0
    while k < n:
        if j >= n - h or (i < h and left[i] <= right[j]):
            o[k] = left[i]
            i += 1
        else:
            o[k] = right[j]
            j += 1
        k += 1
    return(o:arr)
`;

/**
 * The quicksort from pyethereum's Serpent test-suite (test_contracts.py,
 * sort_code), the HEAD-syntax descendant of the original mergesort.se.
 */
export const QUICKSORT = `def sort(args:arr):
    if len(args) < 2:
        return(args:arr)
    h = array(len(args))
    hpos = 0
    l = array(len(args))
    lpos = 0
    i = 1
    while i < len(args):
        if args[i] < args[0]:
            l[lpos] = args[i]
            lpos += 1
        else:
            h[hpos] = args[i]
            hpos += 1
        i += 1
    x = slice(h, items=0, items=hpos)
    h = self.sort(x, outsz=hpos)
    l = self.sort(slice(l, items=0, items=lpos), outsz=lpos)
    o = array(len(args))
    i = 0
    while i < lpos:
        o[i] = l[i]
        i += 1
    o[lpos] = args[0]
    i = 0
    while i < hpos:
        o[lpos + 1 + i] = h[i]
        i += 1
    return(o:arr)
`;

/** Collatz step counter written as a loop program with a storage log of runs. */
export const COLLATZ_LOOP = `data runs
data longest(start, steps)

# Counts the steps for x to reach 1 under n -> n/2 (even), 3n+1 (odd).
def steps(x):
    n = 0
    while x != 1:
        if x % 2 == 0:
            x = x / 2
        else:
            x = 3 * x + 1
        n += 1
    return(n)

# Scans start values [lo, hi) and records the one with the longest chain.
def scan(lo, hi):
    i = lo
    while i < hi:
        s = self.steps(i)
        if s > self.longest.steps:
            self.longest.start = i
            self.longest.steps = s
        i += 1
    self.runs += 1
    return([self.longest.start, self.longest.steps]:arr)
`;

/** verbatim: ethereum/serpent HEAD:examples/ecc/* (secp256k1 recovery in Serpent, built on typed macros). */
export const ECC_FILES: Readonly<Record<string, string>> = {
  'jacobian_arith.se': `inset('modint.type')

def double(m_ax: uint256, m_ay: uint256, m_az: uint256):
    if !m_ay:
        return([0, 0, 0]:arr)
    with P_______P = -4294968273:
        with m_ax = m_ax:
            with m_ay = m_ay:
                with m_ysq = m_ay * m_ay:
                    with m_s = m(4) * m_ax * m_ysq:
                        with m_m = m(3) * m_ax * m_ax:
                            with m_nx = m_m * m_m - m(2) * m_s:
                                with m_ny = m_m * (m_s - m_nx) - m(8) * m_ysq * m_ysq:
                                    with m_nz = m(2) * m_ay * m_az:
                                        ~mstore(~msize(), 3)
                                        ~mstore(~msize(), m_nx)
                                        ~mstore(~msize(), m_ny)
                                        ~mstore(~msize(), m_nz)
                                        return((~msize() - 96):arr)

def add(m_ax: uint256, m_ay: uint256, m_az: uint256, m_bx: uint256, m_by: uint256, m_bz:uint256):
    if !m_ay:
        return([m_bx, m_by, m_bz]:arr)
    if !m_by:
        return([m_ax, m_ay, m_az]:arr)
    with P_______P = -4294968273:
        with m_u1 = m_ax * m_bz * m_bz:
            with m_u2 = m_bx * m_az * m_az:
                with m_s1 = m_ay * m_bz * m_bz * m_bz:
                    with m_s2 = m_by * m_az * m_az * m_az:
                        if m_u1 == m_u2:
                            if m_s1 != m_s2:
                                return([0, 0, 1]:arr)
                            else:
                                return(self.double(m_ax, m_ay, m_az, outitems=3):arr)
                        with m_h = m_u2 - m_u1:
                            with m_r = m_s2 - m_s1:
                                with m_h2 = m_h * m_h:
                                    with m_h3 = m_h * m_h2:
                                        with m_u1h2 = m_u1 * m_h2:
                                            with m_nx = m_r * m_r - m_h3 - m(2) * m_u1h2:
                                                with m_ny = m_r * (m_u1h2 - m_nx) - m_s1 * m_h3:
                                                    with m_nz = m_h * m_az * m_bz:
                                                        ~mstore(~msize(), 3)
                                                        ~mstore(~msize(), m_nx)
                                                        ~mstore(~msize(), m_ny)
                                                        ~mstore(~msize(), m_nz)
                                                        return((~msize() - 96):arr)


def mul(m_bx: uint256, m_by: uint256, m_bz: uint256, n: uint256):
    n = mod(n, -432420386565659656852420866394968145599)
    if !m_bx * !m_by + !n: # Constant-gas version of !axn and !ayn or !n
        return([0, 0, 1]:arr)
    with o = [0, 0, 1]:
        with b = 2 ^ 255:
            while gt(b, 0):
                # EC double inset
                with m_ax = o[0]:
                    with m_ay = o[1]:
                        with m_az = o[2]:
                          with P_______P = -4294968273:
                            with m_ysq = m_ay * m_ay:
                                with m_s = m(4) * m_ax * m_ysq:
                                    with m_m = m(3) * m_ax * m_ax:
                                        with m_nx = m_m * m_m - m(2) * m_s:
                                            o[1] = m_m * (m_s - m_nx) - m(8) * m_ysq * m_ysq
                                            o[2] = m(2) * m_ay * m_az
                                            o[0] = m_nx
                if n & b:
                    # EC addition inset
                    with m_ax = o[0]:
                        with m_ay = o[1]:
                            with m_az = o[2]:
                                if !m_ay:
                                    o = [m_bx, m_by, m_bz]
                                elif !m_by:
                                    o = [m_ax, m_ay, m_az]
                                else:
                                    with P_______P = -4294968273:
                                        with m_u1 = m_ax * m_bz * m_bz:
                                            with m_u2 = m_bx * m_az * m_az:
                                                with m_s1 = m_ay * m_bz * m_bz * m_bz:
                                                    with m_s2 = m_by * m_az * m_az * m_az:
                                                        if m_u1 == m_u2:
                                                            if m_s1 != m_s2:
                                                                o = [0, 0, 1]
                                                            else:
                                                                o = self.double(m_ax, m_ay, m_az, outitems=3)
                                                        with m_h = m_u2 - m_u1:
                                                            with m_r = m_s2 - m_s1:
                                                                with m_h2 = m_h * m_h:
                                                                    with m_h3 = m_h * m_h2:
                                                                        m_u1h2 = m_u1 * m_h2
                                                                        m_nx = m_r * m_r - m_h3 - m(2) * m_u1h2
                                                                        o[1] = m_r * (m_u1h2 - m_nx) - m_s1 * m_h3
                                                                        o[2] = m_h * m_az * m_bz
                                                                        o[0] = m_nx
                b = div(b, 2)
            return(o:arr)


def recover_y(x: uint256, y_bit):
    N = -432420386565659656852420866394968145599
    P = -4294968273
    xcubed = mulmod(mulmod(x, x, P), x, P)
    beta = self.exp(addmod(xcubed, 7, P), div(P + 1, 4), P)
    y_is_positive = y_bit xor mod(beta, 2) xor 1
    return(beta * y_is_positive + (P - beta) * (1 - y_is_positive))


def exp(b: uint256, e: uint256, m: uint256):
    with o = 1:
        with bit = 2 ^ 255:
            while gt(bit, 0):
                # A touch of loop unrolling for 20% efficiency gain
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & bit)), m)
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & div(bit, 2))), m)
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & div(bit, 4))), m)
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & div(bit, 8))), m)
                bit = div(bit, 16)
            return(o)
    y_is_positive = y_bit xor mod(beta, 2)
    return(beta * y_is_positive + (P - beta) * (1 - y_is_positive))


def decompose(Q:arr):
    P = -4294968273
    ox = mulmod(Q[0], self.exp(Q[2], P - 3, P), P)
    oy = mulmod(Q[1], self.exp(Q[2], P - 4, P), P)
    return([ox, oy]:arr)
`,
  'modint.type': `P_______P = -4294968273
type modint: m_

macro modint($x) + modint($y):
    modint(addmod($x, $y, P_______P))

macro modint($x) * modint($y):
    modint(mulmod($x, $y, P_______P))

macro modint($x) - modint($y):
    modint(addmod($x, P_______P-$y, P_______P))

macro m($x):
    modint(mod($x, P_______P))

macro(10) modint($x):
    $x

macro modint($x) = modint($y):
    $x = $y

macro modint($x) == modint($y):
    $x == $y

macro u4([modint($a), modint($b), modint($c), modint($d)]):
    [$a, $b, $c, $d]

macro with(modint($x) = modint($y), $z):
    with($x, $y, $z)
`,
  'modexp.se': `def exp(b: uint256, e: uint256, m:uint256):
    with o = 1:
        with bit = 2 ^ 255:
            while gt(bit, 0):
                # A touch of loop unrolling for 20% efficiency gain
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & bit)), m)
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & div(bit, 2))), m)
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & div(bit, 4))), m)
                o = mulmod(mulmod(o, o, m), b ^ !(!(e & div(bit, 8))), m)
                bit = div(bit, 16)
            return(o)
`,
};

/** verbatim: ethereum/serpent HEAD:examples/ecc/ecrecover.se */
export const ECC_ECRECOVER = `# So I looked up on Wikipedia what Jacobian form actually is, and noticed that it's 
# actually a rather different and more clever construction than the naive version
# that I created. It may possible to achieve a further 20-50% savings by applying 
# that version.

extern modint.type: [add:[uint256,uint256,uint256,uint256,uint256,uint256]:int256[], decompose:[int256[]]:int256[], double:[uint256,uint256,uint256]:int256[], exp:[uint256,uint256,uint256]:int256, mul:[uint256,uint256,uint256,uint256]:int256[], recover_y:[uint256,int256]:int256]
extern modexp.se: [exp:[uint256,uint256,uint256]:int256]

data JACOBIAN_ARITH
data EXP

N = -432420386565659656852420866394968145599
P = -4294968273

def init():
    self.JACOBIAN_ARITH = create('jacobian_arith.se')

event PubkeyTripleLogEvent(x:uint256, y:uint256, z:uint256)

def ecrecover(h: uint256, v: uint256, r: uint256, s: uint256):
    h = mod(h, N)
    r = mod(r, P)
    s = mod(s, N)
    Gx = 55066263022277343669578718895168534326250603453777594175500187360389116729240
    Gy = 32670510020758816978083085130507043184471273380659243275938904335757337482424
    x = r
    y = self.JACOBIAN_ARITH.recover_y(x, mod(v, 2) xor 1)
    GZ = self.JACOBIAN_ARITH.mul(Gx, Gy, 1, N - h, outitems=3)
    log(type=PubkeyTripleLogEvent, GZ[0], GZ[1], GZ[2])
    XY = self.JACOBIAN_ARITH.mul(x, y, 1, s, outitems=3)
    log(type=PubkeyTripleLogEvent, XY[0], XY[1], XY[2])
    COMB = self.JACOBIAN_ARITH.add(GZ[0], GZ[1], GZ[2], XY[0], XY[1], XY[2], outsz=3)
    log(type=PubkeyTripleLogEvent, COMB[0], COMB[1], COMB[2])
    invr = self.JACOBIAN_ARITH.exp(r, N - 2, N)
    Q = self.JACOBIAN_ARITH.mul(COMB[0], COMB[1], COMB[2], invr, outsz=3)
    return(self.JACOBIAN_ARITH.decompose(Q, outitems=2):arr)
`;
