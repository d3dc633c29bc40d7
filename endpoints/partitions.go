package endpoints

import (
	"fmt"
	"regexp"
	"sync"
)

// Partition is an AWS partition: a group of regions sharing DNS suffixes.
// The table below is this project's own statement of the public AWS
// partitions; TestPartitionsMatchShared checks it field by field against
// the AWS partitions.json in the shared test data.
type Partition struct {
	ID                   string
	RegionRegex          string
	Regions              []string
	Name                 string
	DNSSuffix            string
	DualStackDNSSuffix   string
	SupportsFIPS         bool
	SupportsDualStack    bool
	ImplicitGlobalRegion string
}

// Partitions returns the AWS partitions, in the order regions are matched
// against their regular expressions.
func Partitions() []Partition { return append([]Partition(nil), partitions...) }

var partitions = []Partition{
	{
		ID: "aws", RegionRegex: `^(us|eu|ap|sa|ca|me|af|il|mx)\-\w+\-\d+$`,
		Regions: []string{"af-south-1", "ap-east-1", "ap-east-2", "ap-northeast-1", "ap-northeast-2",
			"ap-northeast-3", "ap-south-1", "ap-south-2", "ap-southeast-1", "ap-southeast-2",
			"ap-southeast-3", "ap-southeast-4", "ap-southeast-5", "ap-southeast-6", "ap-southeast-7",
			"ca-central-1", "ca-west-1", "eu-central-1", "eu-central-2", "eu-north-1", "eu-south-1",
			"eu-south-2", "eu-west-1", "eu-west-2", "eu-west-3", "il-central-1", "me-central-1",
			"me-south-1", "mx-central-1", "sa-east-1", "us-east-1", "us-east-2", "us-west-1",
			"us-west-2", "aws-global"},
		Name: "aws", DNSSuffix: "amazonaws.com", DualStackDNSSuffix: "api.aws",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "us-east-1",
	},
	{
		ID: "aws-us-gov", RegionRegex: `^us\-gov\-\w+\-\d+$`,
		Regions: []string{"us-gov-west-1", "us-gov-east-1", "aws-us-gov-global"},
		Name:    "aws-us-gov", DNSSuffix: "amazonaws.com", DualStackDNSSuffix: "api.aws",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "us-gov-west-1",
	},
	{
		ID: "aws-cn", RegionRegex: `^cn\-\w+\-\d+$`,
		Regions: []string{"cn-north-1", "cn-northwest-1", "aws-cn-global"},
		Name:    "aws-cn", DNSSuffix: "amazonaws.com.cn", DualStackDNSSuffix: "api.amazonwebservices.com.cn",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "cn-northwest-1",
	},
	{
		ID: "aws-iso", RegionRegex: `^us\-iso\-\w+\-\d+$`,
		Regions: []string{"us-iso-east-1", "us-iso-west-1", "aws-iso-global"},
		Name:    "aws-iso", DNSSuffix: "c2s.ic.gov", DualStackDNSSuffix: "api.aws.ic.gov",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "us-iso-east-1",
	},
	{
		ID: "aws-iso-b", RegionRegex: `^us\-isob\-\w+\-\d+$`,
		Regions: []string{"us-isob-east-1", "aws-iso-b-global"},
		Name:    "aws-iso-b", DNSSuffix: "sc2s.sgov.gov", DualStackDNSSuffix: "api.aws.scloud",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "us-isob-east-1",
	},
	{
		ID: "aws-iso-e", RegionRegex: `^eu\-isoe\-\w+\-\d+$`,
		Name: "aws-iso-e", DNSSuffix: "cloud.adc-e.uk", DualStackDNSSuffix: "api.cloud-aws.adc-e.uk",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "eu-isoe-west-1",
	},
	{
		ID: "aws-iso-f", RegionRegex: `^us\-isof\-\w+\-\d+$`,
		Regions: []string{"aws-iso-f-global", "us-isof-east-1", "us-isof-south-1"},
		Name:    "aws-iso-f", DNSSuffix: "csp.hci.ic.gov", DualStackDNSSuffix: "api.aws.hci.ic.gov",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "us-isof-south-1",
	},
	{
		ID: "aws-eusc", RegionRegex: `^eusc\-(de)\-\w+\-\d+$`,
		Regions: []string{"eusc-de-east-1"},
		Name:    "aws-eusc", DNSSuffix: "amazonaws.eu", DualStackDNSSuffix: "api.amazonwebservices.eu",
		SupportsFIPS: true, SupportsDualStack: true, ImplicitGlobalRegion: "eusc-de-east-1",
	},
}

// partitionIndex is what aws.partition looks regions up in: built from the
// table at the first lookup (not at package start-up: a process that never
// evaluates AWS rules does not compile the regexps), read only afterwards.
type partitionIndex struct {
	byRegion map[string]Value
	regexes  []*regexp.Regexp
	values   []Value
}

var partIndex = sync.OnceValue(buildPartitionIndex)

func buildPartitionIndex() *partitionIndex {
	ix := &partitionIndex{byRegion: map[string]Value{}}
	for _, p := range partitions {
		v := Record(map[string]Value{
			"name":                 String(p.Name),
			"dnsSuffix":            String(p.DNSSuffix),
			"dualStackDnsSuffix":   String(p.DualStackDNSSuffix),
			"supportsFIPS":         Bool(p.SupportsFIPS),
			"supportsDualStack":    Bool(p.SupportsDualStack),
			"implicitGlobalRegion": String(p.ImplicitGlobalRegion),
		})
		for _, r := range p.Regions {
			ix.byRegion[r] = v
		}
		ix.regexes = append(ix.regexes, regexp.MustCompile(p.RegionRegex))
		ix.values = append(ix.values, v)
	}
	return ix
}

// awsPartition finds a region's partition: a known region, then the first
// partition whose regular expression matches, else the aws partition.
func awsPartition(region Value) Value {
	if region.kind != StringKind {
		return Null
	}
	ix := partIndex()
	if v, ok := ix.byRegion[region.s]; ok {
		return v
	}
	for i, re := range ix.regexes {
		if re.MatchString(region.s) {
			return ix.values[i]
		}
	}
	return ix.values[0]
}

// CheckRegion refuses a region that cannot be part of a host name: each
// dot-separated part must be a host label (letters, digits, hyphens), so
// "us-east-1/../evil" or a region with CR or LF never reaches a URL, even
// for rule sets that put the region in the host without checking it.
func CheckRegion(region string) error {
	if !isValidHostLabel(region, true) {
		return fmt.Errorf("region %q is not a valid region name (letters, digits and hyphens, dot-separated)", region)
	}
	return nil
}
