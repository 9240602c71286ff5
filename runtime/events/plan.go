package events

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Plan is what the bus will consume, where: one entry per group, with the contracts it
// consumes and the consumer handling each. It is known before Start, sorted (stable to
// print, diff or marshal as JSON).
type Plan struct {
	Transport string      `json:"transport"`
	Groups    []PlanGroup `json:"groups"`
}

// PlanGroup is one group of the plan.
type PlanGroup struct {
	Group       Group          `json:"group"`
	MaxInFlight int            `json:"maxInFlight"`
	AckWait     time.Duration  `json:"ackWait"`
	MaxAttempts int            `json:"maxAttempts"`
	StartAt     string         `json:"startAt"`
	Consumers   []PlanConsumer `json:"consumers"`

	settings GroupSettings
	subs     []Subscription
}

// PlanConsumer is one subscription of a group.
type PlanConsumer struct {
	Event    string `json:"event"`
	Consumer string `json:"consumer"`
}

// Contracts lists the group's contracts (its filter subjects), sorted.
func (g PlanGroup) Contracts() []string {
	out := make([]string, len(g.Consumers))
	for i, c := range g.Consumers {
		out[i] = c.Event
	}
	return out
}

// Plan returns what Start will subscribe.
func (b *Bus) Plan() Plan {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.plan()
}

func (b *Bus) plan() Plan {
	byGroup := map[Group][]Subscription{}
	for _, s := range b.subs {
		byGroup[s.Group] = append(byGroup[s.Group], s)
	}
	p := Plan{Transport: b.transportName(), Groups: []PlanGroup{}}
	for group, subs := range byGroup {
		slices.SortFunc(subs, func(a, b Subscription) int {
			return cmp.Or(cmp.Compare(a.Event, b.Event), cmp.Compare(a.Consumer, b.Consumer))
		})
		s := b.settings[group].withDefaults()
		g := PlanGroup{Group: group, MaxInFlight: s.MaxInFlight, AckWait: s.AckWait, MaxAttempts: s.MaxAttempts,
			StartAt: s.StartAt.String(), settings: s, subs: subs}
		for _, sub := range subs {
			g.Consumers = append(g.Consumers, PlanConsumer{Event: sub.Event, Consumer: sub.Consumer})
		}
		p.Groups = append(p.Groups, g)
	}
	slices.SortFunc(p.Groups, func(a, b PlanGroup) int { return cmp.Compare(a.Group, b.Group) })
	return p
}

// String prints the plan, one group per paragraph:
//
//	events over nats
//	group billing (maxInFlight=16 ackWait=30s maxAttempts=5 start=new)
//	  shop.orders.placed -> billing.OnPlaced
func (p Plan) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "events over %s\n", p.Transport)
	for _, g := range p.Groups {
		fmt.Fprintf(&sb, "group %s (maxInFlight=%d ackWait=%s maxAttempts=%d start=%s)\n",
			g.Group, g.MaxInFlight, g.AckWait, g.MaxAttempts, g.StartAt)
		for _, c := range g.Consumers {
			fmt.Fprintf(&sb, "  %s -> %s\n", c.Event, c.Consumer)
		}
	}
	return sb.String()
}
