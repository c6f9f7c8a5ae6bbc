package browse

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// ErrBlocked is a fetch refused for the address it would reach.
var ErrBlocked = errors.New("blocked")

// Resolver looks a host name up (net.DefaultResolver; tests inject one).
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// blockedPrefixes are the address ranges a page is never fetched from
// without the local-network switch (see the package doc).
var blockedPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
		"172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15",
		"224.0.0.0/4", "240.0.0.0/4",
		"::/128", "::1/128", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// nat64 is the well-known NAT64 prefix: its last 32 bits are an IPv4
// address.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Local reports whether ip is on this computer or its local network (the
// classes the package doc lists), in any of its IPv6 spellings.
func Local(ip netip.Addr) bool {
	ip = ip.WithZone("")
	if ip.Is4In6() {
		ip = ip.Unmap()
	}
	if ip.Is6() && nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	if !ip.IsValid() {
		return true
	}
	for _, p := range blockedPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// guard dials only addresses the policy allows.
type guard struct {
	resolver Resolver
	// allowLocal reads the character's local-network switch at each dial.
	allowLocal func() bool
	// dial connects to one checked address ("ip:port"); nil is a
	// net.Dialer whose Control checks the address again.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// check refuses ip unless it is public or local pages are allowed.
func (g *guard) check(ip netip.Addr) error {
	if Local(ip) && !g.allowLocal() {
		return fmt.Errorf("%s: %w", ip, ErrBlocked)
	}
	return nil
}

// control is the dialer's last check, on the address it connects to.
func (g *guard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%s: %w", address, ErrBlocked)
	}
	return g.check(ap.Addr())
}

// resolve returns host's addresses, each checked; a name with any blocked
// address is refused whole (a mixed answer is a rebinding attempt or a
// misconfigured site either way).
func (g *guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := g.check(ip); err != nil {
			return nil, err
		}
		return []netip.Addr{ip}, nil
	}
	as, err := g.resolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("look up %s: %w", host, err)
	}
	var out []netip.Addr
	for _, a := range as {
		ip, ok := netip.AddrFromSlice(a.IP)
		if !ok {
			continue
		}
		if err := g.check(ip.Unmap()); err != nil {
			return nil, fmt.Errorf("%s is %w", host, err)
		}
		out = append(out, ip.Unmap())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("look up %s: no address", host)
	}
	return out, nil
}

// dialContext dials addr ("host:port") through its checked addresses, in
// order, each dial checked again by the dialer's Control.
func (g *guard) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	ips, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	dial := g.dial
	if dial == nil {
		d := &net.Dialer{Control: g.control}
		dial = d.DialContext
	}
	var errs []error
	for _, ip := range ips {
		c, err := dial(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}
