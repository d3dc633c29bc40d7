package proptest

import (
	"github.com/smithycurl/smithycurl/internal/valuegen"
	"github.com/smithycurl/smithycurl/model"
)

// Gen generates random values of the shapes of one model (the shared
// generator of internal/valuegen).
type Gen = valuegen.Gen

// Loc is where a member travels in an HTTP message.
type Loc = valuegen.Loc

// Locations.
const (
	LocBody          = valuegen.LocBody
	LocLabel         = valuegen.LocLabel
	LocGreedyLabel   = valuegen.LocGreedyLabel
	LocQuery         = valuegen.LocQuery
	LocQueryParams   = valuegen.LocQueryParams
	LocHeader        = valuegen.LocHeader
	LocPrefixHeaders = valuegen.LocPrefixHeaders
	LocPayload       = valuegen.LocPayload
	LocStatus        = valuegen.LocStatus
)

// NewGen returns a generator for m seeded with seed.
func NewGen(m *model.Model, seed int64) *Gen { return valuegen.New(m, seed) }
